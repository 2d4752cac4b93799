//! The protocol buffers wire format, as far as reading `model.onnx` needs it: a message is a run of
//! fields, each a key (field number × 8 + wire type, a varint) then a value — a varint, 8 or 4
//! bytes, or a length (a varint) and that many bytes (a string, a nested message, a packed list).
//! Nothing is copied: a value's bytes are a slice of the message's.

/// The value of one field.
pub enum Value<'a> {
    Varint(u64),
    /// 8 bytes, skipped: the runtime reads no double or fixed 64-bit field.
    Fixed64,
    Bytes(&'a [u8]),
    Fixed32(u32),
}

/// The fields of a message, in the order they are written; the first malformed one ends it with an error.
pub struct Fields<'a> {
    rest: &'a [u8],
}

pub fn fields(message: &[u8]) -> Fields<'_> {
    Fields { rest: message }
}

const TRUNCATED: &str = "it ends inside a field (the file is cut short)";

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u64, Value<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let field = self.field();
        if field.is_err() {
            self.rest = &[];
        }
        Some(field)
    }
}

impl<'a> Fields<'a> {
    fn field(&mut self) -> Result<(u64, Value<'a>), String> {
        let key = varint(&mut self.rest)?;
        let value = match key & 7 {
            0 => Value::Varint(varint(&mut self.rest)?),
            1 => {
                self.take(8)?;
                Value::Fixed64
            }
            2 => {
                let length =
                    usize::try_from(varint(&mut self.rest)?).map_err(|_| TRUNCATED.to_string())?;
                Value::Bytes(self.take(length)?)
            }
            5 => Value::Fixed32(u32::from_le_bytes(self.take(4)?.try_into().unwrap())),
            other => {
                return Err(format!(
                    "it holds a field of wire type {other}, which ONNX does not write"
                ))
            }
        };
        Ok((key >> 3, value))
    }

    fn take(&mut self, length: usize) -> Result<&'a [u8], String> {
        if length > self.rest.len() {
            return Err(TRUNCATED.to_string());
        }
        let (taken, rest) = self.rest.split_at(length);
        self.rest = rest;
        Ok(taken)
    }
}

/// A varint: 7 bits a byte, lowest first, the high bit set on every byte but the last.
fn varint(bytes: &mut &[u8]) -> Result<u64, String> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes.split_first().ok_or_else(|| TRUNCATED.to_string())?;
        *bytes = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err("it holds a varint longer than 64 bits".to_string())
}

/// The varints of a packed list (a repeated integer field written as one length-delimited value).
pub fn packed_varints(mut bytes: &[u8]) -> Result<Vec<u64>, String> {
    let mut values = Vec::new();
    while !bytes.is_empty() {
        values.push(varint(&mut bytes)?);
    }
    Ok(values)
}

/// A length-delimited value read as text.
pub fn text(bytes: &[u8]) -> Result<String, String> {
    String::from_utf8(bytes.to_vec()).map_err(|_| "it holds a name that is not UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_wire_type() {
        // field 1 varint 300; field 2 bytes "hi"; field 3 fixed32 1.0f32; field 4 fixed64 7
        let mut message = vec![0x08, 0xac, 0x02, 0x12, 2, b'h', b'i', 0x1d];
        message.extend(1f32.to_le_bytes());
        message.push(0x21);
        message.extend(7u64.to_le_bytes());
        let read: Vec<_> = fields(&message).collect::<Result<_, _>>().unwrap();
        assert!(matches!(read[0], (1, Value::Varint(300))));
        assert!(matches!(read[1], (2, Value::Bytes(b"hi"))));
        assert!(matches!(read[2], (3, Value::Fixed32(bits)) if f32::from_bits(bits) == 1.0));
        assert!(matches!(read[3], (4, Value::Fixed64)));
        assert_eq!(packed_varints(&[1, 0xac, 0x02]).unwrap(), vec![1, 300]);
    }

    #[test]
    fn a_cut_message_is_an_error_then_the_end() {
        let mut read = fields(&[0x12, 5, b'a']);
        assert_eq!(read.next().unwrap().err().unwrap(), TRUNCATED);
        assert!(read.next().is_none());
        assert!(fields(&[0x08, 0x80]).next().unwrap().is_err());
        assert!(fields(&[0x0b])
            .next()
            .unwrap()
            .err()
            .unwrap()
            .contains("wire type 3"));
    }
}
