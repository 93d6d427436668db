# Builds model.onnx: two independent MatMul branches (so PARALLEL execution mode schedules them on the
# inter-op thread pool) added together.
import onnx
from onnx import TensorProto, helper

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [256, 256])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [256, 256])
nodes = [
    helper.make_node("MatMul", ["x", "x"], ["a"]),
    helper.make_node("MatMul", ["x", "a"], ["b"]),
    helper.make_node("Relu", ["x"], ["c"]),
    helper.make_node("MatMul", ["c", "c"], ["d"]),
    helper.make_node("Add", ["b", "d"], ["y"]),
]
graph = helper.make_graph(nodes, "twobranch", [x], [y])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, "model.onnx")
