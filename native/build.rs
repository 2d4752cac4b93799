fn main() {
    // Node's N-API symbols are resolved when the addon is loaded, not at link time.
    if std::env::var_os("CARGO_FEATURE_NODE").is_some() {
        napi_build::setup();
    }
}
