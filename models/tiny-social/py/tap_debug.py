"""Write debug copies of the exported graphs with the residual stream exposed as extra outputs
(/model/embed_tokens/Gather_output_0 and /model/layers.N/Add_1_output_0), for verify.ts.
Usage: tap_debug.py OUT_DIR WORK_DIR"""
import sys
import json
import onnx
from onnx import helper, TensorProto

out, work = sys.argv[1], sys.argv[2]
for name in ("model", "model_q4"):
    m = onnx.load(f"{out}/onnx/{name}.onnx")
    produced = {o for n in m.graph.node for o in n.output}
    L = json.load(open(f"{out}/config.json"))["num_hidden_layers"]
    taps = ["/model/embed_tokens/Gather_output_0"] + [f"/model/layers.{i}/Add_1_output_0" for i in range(L)]
    for t in taps:
        assert t in produced, f"{name}: missing {t}"
        m.graph.output.append(helper.make_tensor_value_info(t, TensorProto.FLOAT, None))
    onnx.save(m, f"{work}/{name}_taps.onnx")
    print(name, "taps", len(taps))
