//! How the dense layers multiply (floats or 8-bit integers): what the model runs with and what
//! its pre-packed file was made for, so both take it from here.

use crate::int8;

/// How the dense layers multiply: in floats, as the ONNX graph does, or in 8-bit integers (int8.rs:
/// three to four times as fast where the processor has VNNI; a text's vector keeps a cosine of
/// 0.997 or more with the float one). Vectors of one arithmetic are not mixed with another's (the
/// store's identity names it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    Float32,
    Int8,
}

impl Arithmetic {
    /// The fastest this processor has.
    pub fn fastest() -> Arithmetic {
        if int8::available() {
            Arithmetic::Int8
        } else {
            Arithmetic::Float32
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Arithmetic::Float32 => "float32",
            Arithmetic::Int8 => "int8",
        }
    }

    /// The arithmetic named `name`, if this processor has it.
    pub fn named(name: &str) -> std::result::Result<Arithmetic, String> {
        match name {
            "float32" => Ok(Arithmetic::Float32),
            "int8" if int8::available() => Ok(Arithmetic::Int8),
            "int8" => Err("this processor has no VNNI (AVX-VNNI or AVX-512 VNNI), which int8 arithmetic needs".to_string()),
            _ => Err(format!("no arithmetic is named {name:?}: float32 or int8")),
        }
    }
}
