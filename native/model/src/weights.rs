//! The weights of a BERT encoder, found in an ONNX graph (onnx.rs) by the names of the PyTorch
//! export: `embeddings.*`, `encoder.layer.N.*`. The export keeps those names for biases and norms,
//! but names a dense layer's matrix after its MatMul node (`onnx::MatMul_787`); such a matrix is
//! the one whose product the graph adds to the layer's bias, and it is stored inputs × outputs.

use std::collections::HashMap;

use crate::held::Held;
use crate::int8::QuantizedMatrix;
use crate::onnx::{Graph, Tensor};

/// A dense layer: `x × weight + bias`, `weight` inputs × outputs, row-major.
pub struct Dense {
    /// Empty once `quantized` holds the matrix instead.
    pub weight: Held<f32>,
    pub quantized: Option<QuantizedMatrix>,
    pub bias: Vec<f32>,
    pub inputs: usize,
    pub outputs: usize,
}

/// A layer norm's scale and shift.
pub struct Norm {
    pub scale: Vec<f32>,
    pub shift: Vec<f32>,
}

pub struct Layer {
    /// Query, key and value side by side: outputs 0..h are the query, h..2h the key, 2h..3h the value.
    pub qkv: Dense,
    pub attention_out: Dense,
    pub attention_norm: Norm,
    pub intermediate: Dense,
    pub output: Dense,
    pub output_norm: Norm,
}

pub struct Bert {
    pub hidden: usize,
    /// Rows of `hidden` floats: one per token id, per position, for token type 0.
    pub words: Held<f32>,
    pub positions: Vec<f32>,
    pub token_type: Vec<f32>,
    pub embedding_norm: Norm,
    pub layers: Vec<Layer>,
    /// The layer norms' epsilon, as the graph adds it.
    pub epsilon: f32,
}

impl Bert {
    pub fn from_graph(mut graph: Graph) -> Result<Bert, String> {
        let matrices = matrices_by_layer(&graph);
        let is_gelu = graph.nodes.iter().any(|node| node.op == "Erf");
        let epsilon = epsilon(&graph);
        let mut weights = Weights {
            initializers: &mut graph.initializers,
            matrices,
        };
        let words = weights.take("embeddings.word_embeddings.weight", 2)?;
        if !is_gelu {
            return Err("its activation is not GELU as erf computes it".to_string());
        }
        let epsilon = epsilon?;
        let hidden = words.dims[1];
        let positions = weights.take_rows("embeddings.position_embeddings.weight", hidden)?;
        let mut token_type =
            weights.take_rows("embeddings.token_type_embeddings.weight", hidden)?;
        token_type.truncate(hidden);
        let embedding_norm = weights.norm("embeddings.LayerNorm", hidden)?;
        let mut layers = Vec::new();
        while weights.has_layer(layers.len()) {
            let prefix = format!("encoder.layer.{}", layers.len());
            let [query, key, value] = ["query", "key", "value"]
                .map(|part| weights.dense(&format!("{prefix}.attention.self.{part}"), hidden));
            let intermediate = weights.dense(&format!("{prefix}.intermediate.dense"), hidden)?;
            layers.push(Layer {
                qkv: side_by_side(&[query?, key?, value?]),
                attention_out: weights
                    .dense(&format!("{prefix}.attention.output.dense"), hidden)?,
                attention_norm: weights
                    .norm(&format!("{prefix}.attention.output.LayerNorm"), hidden)?,
                output: weights.dense(&format!("{prefix}.output.dense"), intermediate.outputs)?,
                intermediate,
                output_norm: weights.norm(&format!("{prefix}.output.LayerNorm"), hidden)?,
            });
        }
        if layers.is_empty() {
            return Err(
                "it has no weights for encoder.layer.0: it is not a BERT encoder".to_string(),
            );
        }
        Ok(Bert {
            hidden,
            words: words.floats.into(),
            positions,
            token_type,
            embedding_norm,
            layers,
            epsilon,
        })
    }
}

impl Bert {
    /// Every dense layer's matrix quantized for the integer product (int8.rs), its floats dropped;
    /// a matrix of a shape the integer product cannot take stays in floats.
    pub fn quantize(&mut self) {
        for layer in &mut self.layers {
            for dense in [
                &mut layer.qkv,
                &mut layer.attention_out,
                &mut layer.intermediate,
                &mut layer.output,
            ] {
                if let Some(quantized) =
                    QuantizedMatrix::new(&dense.weight, dense.inputs, dense.outputs)
                {
                    dense.quantized = Some(quantized);
                    dense.weight = Held::default();
                }
            }
        }
    }
}

struct Weights<'a> {
    initializers: &'a mut HashMap<String, Tensor>,
    /// A dense layer's name (`encoder.layer.0.attention.self.query`) → its matrix's initializer.
    matrices: HashMap<String, String>,
}

impl Weights<'_> {
    fn take(&mut self, name: &str, rank: usize) -> Result<Tensor, String> {
        let tensor = self.initializers.remove(name).ok_or_else(|| {
            format!("it has no weights named {name}: it is not the BERT encoder recall runs")
        })?;
        if tensor.dims.len() != rank || tensor.dims.contains(&0) {
            return Err(format!("{name} has the shape {:?}", tensor.dims));
        }
        Ok(tensor)
    }

    /// A matrix of rows `width` floats wide.
    fn take_rows(&mut self, name: &str, width: usize) -> Result<Vec<f32>, String> {
        let tensor = self.take(name, 2)?;
        if tensor.dims[1] != width {
            return Err(format!(
                "{name} has the shape {:?}, not rows of {width}",
                tensor.dims
            ));
        }
        Ok(tensor.floats)
    }

    fn vector(&mut self, name: &str, length: usize) -> Result<Vec<f32>, String> {
        let tensor = self.take(name, 1)?;
        if tensor.dims[0] != length {
            return Err(format!(
                "{name} has {} floats, not {length}",
                tensor.dims[0]
            ));
        }
        Ok(tensor.floats)
    }

    fn norm(&mut self, name: &str, width: usize) -> Result<Norm, String> {
        Ok(Norm {
            scale: self.vector(&format!("{name}.weight"), width)?,
            shift: self.vector(&format!("{name}.bias"), width)?,
        })
    }

    fn dense(&mut self, name: &str, inputs: usize) -> Result<Dense, String> {
        let matrix = self
            .matrices
            .get(name)
            .cloned()
            .unwrap_or_else(|| format!("{name}.weight"));
        let weight = self.take(&matrix, 2)?;
        if weight.dims[0] != inputs {
            return Err(format!(
                "{name} takes {} inputs, not {inputs}",
                weight.dims[0]
            ));
        }
        let outputs = weight.dims[1];
        Ok(Dense {
            weight: weight.floats.into(),
            quantized: None,
            bias: self.vector(&format!("{name}.bias"), outputs)?,
            inputs,
            outputs,
        })
    }

    fn has_layer(&self, index: usize) -> bool {
        self.initializers
            .contains_key(&format!("encoder.layer.{index}.attention.self.query.bias"))
    }
}

/// For each `Add` of a bias (`<layer>.bias`) to the output of a `MatMul` by an initializer: the
/// layer's name → that initializer's name.
fn matrices_by_layer(graph: &Graph) -> HashMap<String, String> {
    let products: HashMap<&str, &str> = graph
        .nodes
        .iter()
        .filter(|node| {
            node.op == "MatMul"
                && node.inputs.len() == 2
                && node.outputs.len() == 1
                && graph.initializers.contains_key(&node.inputs[1])
        })
        .map(|node| (node.outputs[0].as_str(), node.inputs[1].as_str()))
        .collect();
    let mut matrices = HashMap::new();
    for node in graph
        .nodes
        .iter()
        .filter(|node| node.op == "Add" && node.inputs.len() == 2)
    {
        let (a, b) = (&node.inputs[0], &node.inputs[1]);
        for (bias, product) in [(a, b), (b, a)] {
            if let (Some(layer), Some(matrix)) =
                (bias.strip_suffix(".bias"), products.get(product.as_str()))
            {
                matrices.insert(layer.to_string(), matrix.to_string());
            }
        }
    }
    matrices
}

/// The epsilon of the graph's layer norms: the constant added to the variance under each `Sqrt`.
/// They must all be one value.
fn epsilon(graph: &Graph) -> Result<f32, String> {
    let constants: HashMap<&str, f32> = graph
        .nodes
        .iter()
        .filter_map(|node| match (&node.value, &node.outputs[..]) {
            (Some(Tensor { floats, .. }), [output]) if floats.len() == 1 => {
                Some((output.as_str(), floats[0]))
            }
            _ => None,
        })
        .collect();
    let sums: HashMap<&str, &Vec<String>> = graph
        .nodes
        .iter()
        .filter(|node| node.op == "Add" && node.outputs.len() == 1)
        .map(|node| (node.outputs[0].as_str(), &node.inputs))
        .collect();
    let mut found = graph
        .nodes
        .iter()
        .filter(|node| node.op == "Sqrt")
        .filter_map(|node| {
            sums.get(node.inputs.first()?.as_str())?
                .iter()
                .find_map(|input| constants.get(input.as_str()))
                .copied()
        });
    let epsilon = found
        .next()
        .ok_or("it has no layer norm whose epsilon recall can read")?;
    if found.any(|other| other != epsilon) {
        return Err("its layer norms differ in epsilon".to_string());
    }
    Ok(epsilon)
}

/// Dense layers on the same inputs as one: their outputs side by side, in order.
fn side_by_side(parts: &[Dense]) -> Dense {
    let inputs = parts[0].inputs;
    let outputs = parts.iter().map(|part| part.outputs).sum();
    let mut weight = Vec::with_capacity(inputs * outputs);
    for row in 0..inputs {
        for part in parts {
            weight.extend_from_slice(&part.weight[row * part.outputs..(row + 1) * part.outputs]);
        }
    }
    Dense {
        weight: weight.into(),
        quantized: None,
        bias: parts
            .iter()
            .flat_map(|part| part.bias.iter().copied())
            .collect(),
        inputs,
        outputs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_puts_each_row_of_the_parts_together() {
        let a = Dense {
            weight: vec![1.0, 2.0].into(),
            quantized: None,
            bias: vec![10.0],
            inputs: 2,
            outputs: 1,
        };
        let b = Dense {
            weight: vec![3.0, 4.0, 5.0, 6.0].into(),
            quantized: None,
            bias: vec![20.0, 30.0],
            inputs: 2,
            outputs: 2,
        };
        let both = side_by_side(&[a, b]);
        assert_eq!((both.inputs, both.outputs), (2, 3));
        assert_eq!(&*both.weight, &[1.0, 3.0, 4.0, 2.0, 5.0, 6.0]);
        assert_eq!(both.bias, vec![10.0, 20.0, 30.0]);
    }
}
