//! What the runtime reads of an ONNX file (`model.onnx`): its graph's nodes (operator, input and
//! output names, a `Constant`'s value) and its float initializers (the weights), by name. Other
//! messages and fields are skipped. Field numbers are those of onnx.proto.

use std::collections::HashMap;

use crate::protobuf::{fields, packed_varints, text, Value};

pub struct Graph {
    pub nodes: Vec<Node>,
    /// The float initializers; tensors of other types (e.g. int64 position ids) are left out.
    pub initializers: HashMap<String, Tensor>,
}

pub struct Node {
    pub op: String,
    pub inputs: Vec<String>,
    pub outputs: Vec<String>,
    /// A `Constant`'s value, when it is a float tensor.
    pub value: Option<Tensor>,
}

pub struct Tensor {
    pub dims: Vec<usize>,
    /// Row-major, the last dimension varying fastest.
    pub floats: Vec<f32>,
}

/// TensorProto.data_type of a float32 tensor.
const FLOAT: u64 = 1;
/// TensorProto.data_location of a tensor whose data lies in another file.
const EXTERNAL: u64 = 1;

impl Graph {
    /// The graph of the ModelProto in `file`.
    pub fn read(file: &[u8]) -> Result<Graph, String> {
        let mut graph = None;
        for field in fields(file) {
            if let (7, Value::Bytes(bytes)) = field? {
                graph = Some(bytes);
            }
        }
        let graph = graph.ok_or("it holds no ONNX graph")?;
        let (mut nodes, mut initializers) = (Vec::new(), HashMap::new());
        for field in fields(graph) {
            match field? {
                (1, Value::Bytes(bytes)) => nodes.push(node(bytes)?),
                (5, Value::Bytes(bytes)) => {
                    let (name, tensor) = tensor(bytes)?;
                    if let Some(tensor) = tensor {
                        initializers.insert(name, tensor);
                    }
                }
                _ => {}
            }
        }
        Ok(Graph {
            nodes,
            initializers,
        })
    }
}

/// A NodeProto.
fn node(bytes: &[u8]) -> Result<Node, String> {
    let mut node = Node {
        op: String::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        value: None,
    };
    for field in fields(bytes) {
        match field? {
            (1, Value::Bytes(name)) => node.inputs.push(text(name)?),
            (2, Value::Bytes(name)) => node.outputs.push(text(name)?),
            (4, Value::Bytes(op)) => node.op = text(op)?,
            (5, Value::Bytes(attribute)) => {
                // AttributeProto: a Constant's tensor is its field 5 (t).
                for field in fields(attribute) {
                    if let (5, Value::Bytes(value)) = field? {
                        node.value = tensor(value)?.1;
                    }
                }
            }
            _ => {}
        }
    }
    Ok(node)
}

/// A TensorProto's name, and the tensor when it holds floats.
fn tensor(bytes: &[u8]) -> Result<(String, Option<Tensor>), String> {
    let (mut name, mut dims, mut data_type, mut raw, mut listed, mut external) =
        (String::new(), Vec::new(), 0, None, Vec::new(), false);
    for field in fields(bytes) {
        match field? {
            (1, Value::Varint(dim)) => dims.push(dim),
            (1, Value::Bytes(packed)) => dims.extend(packed_varints(packed)?),
            (2, Value::Varint(kind)) => data_type = kind,
            (4, Value::Fixed32(bits)) => listed.push(f32::from_bits(bits)),
            (4, Value::Bytes(packed)) => listed.extend(
                packed
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes(b.try_into().unwrap())),
            ),
            (8, Value::Bytes(text_)) => name = text(text_)?,
            (9, Value::Bytes(bytes)) => raw = Some(bytes),
            (14, Value::Varint(location)) => external = location == EXTERNAL,
            _ => {}
        }
    }
    if data_type != FLOAT {
        return Ok((name, None));
    }
    if external {
        return Err(format!("the weights of {name} are in another file"));
    }
    let floats = match raw {
        Some(raw) if raw.len() % 4 == 0 => raw
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
            .collect(),
        Some(raw) => {
            return Err(format!(
                "{name} holds {} bytes, not whole floats",
                raw.len()
            ))
        }
        None => listed,
    };
    let dims: Vec<usize> = dims
        .into_iter()
        .map(|d| usize::try_from(d).unwrap_or(usize::MAX))
        .collect();
    let count = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
    if count != Some(floats.len()) {
        return Err(format!(
            "{name} holds {} floats, not the {dims:?} its shape says",
            floats.len()
        ));
    }
    Ok((name, Some(Tensor { dims, floats })))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A length-delimited field (`field` < 16, `bytes` shorter than 128).
    fn delimited(field: u8, bytes: &[u8]) -> Vec<u8> {
        let mut out = vec![field << 3 | 2, bytes.len() as u8];
        out.extend(bytes);
        out
    }

    fn float_tensor(name: &str, dims: &[u8], floats: &[f32]) -> Vec<u8> {
        let mut out = delimited(1, dims);
        out.extend([2 << 3, 1]);
        out.extend(delimited(8, name.as_bytes()));
        out.extend(delimited(
            9,
            &floats
                .iter()
                .flat_map(|f| f.to_le_bytes())
                .collect::<Vec<_>>(),
        ));
        out
    }

    #[test]
    fn reads_nodes_and_float_initializers() {
        let mut node = delimited(1, b"x");
        node.extend(delimited(1, b"w"));
        node.extend(delimited(2, b"y"));
        node.extend(delimited(4, b"MatMul"));
        let mut graph = delimited(1, &node);
        graph.extend(delimited(
            5,
            &float_tensor("w", &[2, 2], &[1.0, 2.0, 3.0, 4.0]),
        ));
        // An int64 tensor (data type 7) is left out.
        graph.extend(delimited(5, &[0x10, 7, 0x42, 1, b'p']));
        let graph = Graph::read(&delimited(7, &graph)).unwrap();
        assert_eq!(
            (
                graph.nodes[0].op.as_str(),
                &graph.nodes[0].inputs[..],
                &graph.nodes[0].outputs[..]
            ),
            (
                "MatMul",
                &["x".to_string(), "w".to_string()][..],
                &["y".to_string()][..]
            )
        );
        assert_eq!(graph.initializers["w"].dims, vec![2, 2]);
        assert_eq!(graph.initializers["w"].floats, vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(graph.initializers.len(), 1);
    }

    #[test]
    fn a_tensor_whose_floats_miss_its_shape_is_an_error() {
        let graph = delimited(5, &float_tensor("w", &[2, 3], &[1.0, 2.0]));
        assert_eq!(
            Graph::read(&delimited(7, &graph)).err().unwrap(),
            "w holds 2 floats, not the [2, 3] its shape says"
        );
        assert_eq!(
            Graph::read(&[0x08, 6]).err().unwrap(),
            "it holds no ONNX graph"
        );
    }
}
