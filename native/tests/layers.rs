//! The workspace's rooms and their order, read from the source of each crate: a module uses only
//! modules of its own room or of a room on a lower layer, and no modules use each other in a
//! circle, directly or through others. A module's uses are the `crate::` paths in it (its tests
//! included) and, in a room's `mod.rs`, the `use` of its own modules (re-exports). The model
//! runtime (model/, the crate `recall-model`) is below the whole of this crate: it uses none of
//! it (Cargo refuses a circle of crates) and knows nothing of the index or of Node.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A crate of the workspace: its folder (from this crate's), its layers, lowest first, each
/// holding rooms (a folder of src/, or a file at its top) that use none of each other, and how
/// many modules it has at least (so a source that was not read fails). `lib.rs` only declares the
/// rooms.
struct Crate {
    folder: &'static str,
    layers: &'static [&'static [&'static str]],
    modules: usize,
}

/// recall-native: the search core and its N-API binding.
const CORE: Crate = Crate {
    folder: ".",
    layers: &[
        &["error", "panics", "path_key", "test_index"],
        &["fs", "words", "clauses", "tags"],
        &["meaning"],
        &["index"],
        &["search"],
        &["engine"],
        &["replace"],
        &["binding"],
    ],
    modules: 40,
};

/// recall-model: the model package's files and the ONNX file's parts; the numbers as held and
/// packed; the tokenizer and the network; the pre-packed model; the model as loaded.
const MODEL: Crate = Crate {
    folder: "model",
    layers: &[
        &["held", "protobuf", "package", "vector"],
        &["packing", "int8", "onnx"],
        &["vocabulary", "arithmetic", "weights"],
        &["tokens", "encoder"],
        &["packed"],
        &["model"],
    ],
    modules: 14,
};

const CRATES: [&Crate; 2] = [&CORE, &MODEL];

type Graph = BTreeMap<String, BTreeSet<String>>;

#[test]
fn every_module_uses_only_its_own_room_and_the_layers_below() {
    let mut wrong = Vec::new();
    for krate in CRATES {
        for (module, uses) in &crate_graph(krate) {
            if module.is_empty() {
                continue;
            }
            for used in uses {
                if let Some(reason) = refused(krate.layers, module, used) {
                    wrong.push(format!("{}: {module} uses {used}: {reason}", krate.folder));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "uses against the layer order (tests/layers.rs):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_modules_use_each_other_in_a_circle() {
    for krate in CRATES {
        let graph = crate_graph(krate);
        assert!(
            graph.len() > krate.modules,
            "the source of {} was not read: {} modules",
            krate.folder,
            graph.len()
        );
        if let Some(circle) = circle_in(&graph) {
            panic!(
                "modules of {} that use each other in a circle: {}",
                krate.folder,
                circle.join(" -> ")
            );
        }
    }
}

#[test]
fn the_model_runtime_knows_nothing_of_the_index_or_of_node() {
    let manifest = std::fs::read_to_string(folder(&MODEL).join("Cargo.toml")).unwrap();
    let dependencies = manifest
        .split("\n[")
        .filter(|table| table.starts_with("dependencies]"))
        .collect::<String>();
    for crate_name in [
        "tantivy",
        "napi",
        "napi-derive",
        "rusqlite",
        "recall-native",
    ] {
        assert!(
            !dependencies
                .lines()
                .any(|line| line.starts_with(&format!("{crate_name} "))),
            "model/Cargo.toml depends on {crate_name}"
        );
    }
    assert!(
        dependencies
            .lines()
            .any(|line| line.starts_with("matrixmultiply ")),
        "model/Cargo.toml's dependencies were not read"
    );
}

#[test]
fn the_checks_see_a_circle_and_a_use_of_a_higher_layer() {
    let made_up: Graph = [
        ("search::a", "search::b"),
        ("search::b", "search::c"),
        ("search::c", "search::a"),
    ]
    .into_iter()
    .map(|(from, to)| (from.to_string(), BTreeSet::from([to.to_string()])))
    .collect();
    assert_eq!(circle_in(&made_up).map(|circle| circle.len()), Some(4));
    let core = CORE.layers;
    assert!(refused(core, "index::schema", "search::query").is_some());
    assert!(refused(core, "words::marks", "clauses::any_term").is_some());
    assert!(refused(core, "search::query", "index::schema").is_none());
    assert!(refused(core, "meaning::store", "meaning::unit").is_none());
    assert!(refused(MODEL.layers, "model", "tokens").is_none());
    assert!(refused(MODEL.layers, "tokens", "model").is_some());
    assert!(refused(MODEL.layers, "weights", "encoder").is_some());
}

/// Why `module` may not use `used`, if it may not.
fn refused(layers: &[&[&str]], module: &str, used: &str) -> Option<String> {
    let (room, used_room) = (room_of(module), room_of(used));
    if room == used_room || used.is_empty() {
        return None;
    }
    match (layer_of(layers, room), layer_of(layers, used_room)) {
        (None, _) => Some(format!("{room} is in no layer")),
        (_, None) => Some(format!("{used_room} is in no layer")),
        (Some(layer), Some(used_layer)) if used_layer >= layer => {
            Some(format!("{used_room} is not on a layer below {room}"))
        }
        _ => None,
    }
}

fn room_of(module: &str) -> &str {
    module.split("::").next().unwrap_or_default()
}

fn layer_of(layers: &[&[&str]], room: &str) -> Option<usize> {
    layers.iter().position(|rooms| rooms.contains(&room))
}

/// A circle of `graph` (its first module repeated at its end), if it has one.
fn circle_in(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|on_path| on_path == module) {
            let mut circle = path[start..].to_vec();
            circle.push(module.to_string());
            return Some(circle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_string());
        for used in graph.get(module).into_iter().flatten() {
            if let Some(circle) = visit(used, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}

/// The folder of `krate`.
fn folder(krate: &Crate) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(krate.folder)
}

/// Each module of `krate`'s src/ (`index::schema`; the crate root is "") and the modules it uses.
fn crate_graph(krate: &Crate) -> Graph {
    let src = folder(krate).join("src");
    let mut sources = BTreeMap::new();
    read_modules(&src, &src, &mut sources);
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    let mut graph = Graph::new();
    for (module, (text, owns_folder)) in &sources {
        let mut uses = BTreeSet::new();
        for path in paths_after(text, "crate::") {
            uses.insert(resolve(&path, &modules));
        }
        if *owns_folder {
            let starts = text.match_indices("use ").map(|(at, _)| at);
            for at in starts.filter(|&at| text[..at].trim_end_matches("pub ").ends_with('\n')) {
                let relative = text[at + "use ".len()..].trim_start_matches("self::");
                let mut paths = Vec::new();
                tree_paths(relative, Vec::new(), &mut paths);
                for path in paths {
                    if path
                        .first()
                        .is_some_and(|first| modules.contains(&join(module, first)))
                    {
                        let within: Vec<String> = module
                            .split("::")
                            .filter(|part| !part.is_empty())
                            .map(str::to_string)
                            .chain(path)
                            .collect();
                        uses.insert(resolve(&within, &modules));
                    }
                }
            }
        }
        uses.remove(module);
        graph.insert(module.clone(), uses);
    }
    graph
}

/// Every .rs file under `dir` by its module path, with its text without comments, and whether it
/// is a folder's module (`mod.rs`, `lib.rs`).
fn read_modules(src: &Path, dir: &Path, into: &mut BTreeMap<String, (String, bool)>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("src/ is readable").path();
        if path.is_dir() {
            read_modules(src, &path, into);
            continue;
        }
        if path.extension().is_none_or(|extension| extension != "rs") {
            continue;
        }
        let relative = path.strip_prefix(src).unwrap().with_extension("");
        let mut parts: Vec<String> = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        let owns_folder = matches!(parts.last().map(String::as_str), Some("mod" | "lib"));
        if owns_folder {
            parts.pop();
        }
        let text = std::fs::read_to_string(&path).expect("a source file is readable");
        let code: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        into.insert(parts.join("::"), (code.join("\n"), owns_folder));
    }
}

/// The paths that follow each `prefix` in `text`, a group (`a::{b, c::d}`) giving one path each.
fn paths_after(text: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for (at, _) in text.match_indices(prefix) {
        let before = text[..at].chars().next_back();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            tree_paths(&text[at + prefix.len()..], Vec::new(), &mut paths);
        }
    }
    paths
}

/// The paths of the use tree at the start of `text`, each after `within`; how much of `text` the
/// tree takes.
fn tree_paths(text: &str, mut within: Vec<String>, into: &mut Vec<Vec<String>>) -> usize {
    let name_length = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    if name_length > 0 {
        within.push(text[..name_length].to_string());
        if let Some(rest) = text[name_length..].strip_prefix("::") {
            return name_length + 2 + tree_paths(rest, within, into);
        }
        into.push(within);
        return name_length;
    }
    let Some(group) = text.strip_prefix('{') else {
        into.push(within);
        return 0;
    };
    let mut taken = 1;
    let mut rest = group;
    loop {
        let trimmed = rest.trim_start_matches([',', ' ', '\n']);
        taken += rest.len() - trimmed.len();
        rest = trimmed;
        if rest.is_empty() || rest.starts_with('}') {
            return taken + rest.len().min(1);
        }
        let length = tree_paths(rest, within.clone(), into).max(1);
        taken += length;
        rest = &rest[length..];
    }
}

/// The module `path` names: its longest beginning that is a module (an item's path names the
/// module that holds it).
fn resolve(path: &[String], modules: &BTreeSet<String>) -> String {
    (0..=path.len())
        .rev()
        .map(|length| path[..length].join("::"))
        .find(|module| modules.contains(module))
        .unwrap_or_default()
}

fn join(module: &str, name: &str) -> String {
    if module.is_empty() {
        name.to_string()
    } else {
        format!("{module}::{name}")
    }
}
