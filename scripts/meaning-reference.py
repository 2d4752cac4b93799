#!/usr/bin/env python3
"""Reference embeddings of test/fixtures/meaning/texts.json, computed by onnxruntime and Hugging
Face's tokenizers (the model's own toolchain) from the model package, the way recall's native core
computes them: WordPiece tokens cut to 256, the model's last hidden state averaged over the tokens,
then scaled to length 1. test/meaning-model.test.ts holds recall's vectors to these.

With --tokens: the token ids Hugging Face's tokenizers gives each text of
test/fixtures/meaning/token-texts.json (cut to 256 the same way); native/model/tests/reference.rs
holds recall's own WordPiece (native/model/src/tokens.rs) to these.

Usage: python3 scripts/meaning-reference.py <model-package-dir> > test/fixtures/meaning/reference.json
       python3 scripts/meaning-reference.py <model-package-dir> --tokens > test/fixtures/meaning/tokens.json
Needs: pip install onnxruntime tokenizers numpy
"""
import json
import sys
from pathlib import Path

import numpy as np
import onnxruntime
import tokenizers

MAX_TOKENS = 256

package = Path(sys.argv[1])
fixtures = Path(__file__).parent.parent / "test/fixtures/meaning"
tokenizer = tokenizers.Tokenizer.from_file(str(package / "tokenizer.json"))
tokenizer.no_padding()
tokenizer.enable_truncation(MAX_TOKENS)

if sys.argv[2:] == ["--tokens"]:
    texts = json.loads((fixtures / "token-texts.json").read_text())
    ids = [{"text": text, "ids": tokenizer.encode(text).ids} for text in texts]
    json.dump({"tokenizers": tokenizers.__version__, "texts": ids}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    sys.exit(0)

texts = json.loads((fixtures / "texts.json").read_text())
options = onnxruntime.SessionOptions()
options.intra_op_num_threads = 1
session = onnxruntime.InferenceSession(str(package / "model.onnx"), options, providers=["CPUExecutionProvider"])

references = []
for text in texts:
    ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    hidden = session.run(None, feeds)[0][0]
    vector = hidden.mean(axis=0)
    vector = vector / np.linalg.norm(vector)
    references.append({"text": text, "tokens": int(ids.shape[1]), "vector": [round(float(x), 7) for x in vector]})

json.dump({"onnxruntime": onnxruntime.__version__, "tokenizers": tokenizers.__version__, "references": references}, sys.stdout)
sys.stdout.write("\n")
