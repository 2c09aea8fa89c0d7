"""examples/trained/safetensors_io.py: the numpy safetensors writer and reader (round trip, bytes
against a file computed by hand, BF16 rounding, the malformed fixtures)."""

import json
import struct
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the safetensors writer and reader are built on numpy")

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "trained"))
import safetensors_io as st  # noqa: E402

FIXTURES = ROOT / "tests" / "data" / "safetensors"


def test_bytes_by_hand_f32():
    # header {"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}} is 54 bytes; 2 spaces make
    # 8 + 56 = 64 a multiple of 8. 1.0f = 0x3F800000, -2.0f = 0xC0000000, little-endian.
    header = b'{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}'
    assert len(header) == 54
    expected = (b"\x38\x00\x00\x00\x00\x00\x00\x00" + header + b"  "
                + b"\x00\x00\x80\x3f" + b"\x00\x00\x00\xc0")
    assert st.safetensors_bytes({"x": np.array([1.0, -2.0])}, "F32") == expected


def test_bytes_by_hand_bf16_with_metadata():
    # 1 + 3/256 is float32 0x3F818000: a tie on the dropped half, kept half 0x3F81 odd -> 0x3F82.
    # 1 + 1/256 is 0x3F808000: a tie, kept half 0x3F80 even -> 0x3F80. Names are sorted: a, b.
    header = (b'{"__metadata__":{"k":"v"},"a":{"dtype":"BF16","shape":[1],"data_offsets":[0,2]},'
              b'"b":{"dtype":"BF16","shape":[1],"data_offsets":[2,4]}}')
    pad = -(8 + len(header)) % 8
    expected = struct.pack("<Q", len(header) + pad) + header + b" " * pad + b"\x82\x3f" + b"\x80\x3f"
    got = st.safetensors_bytes({"b": np.array([1 + 1 / 256]), "a": np.array([1 + 3 / 256])}, "BF16",
                               metadata={"k": "v"})
    assert got == expected


def test_bf16_round_to_nearest_even():
    x = np.array([1.0, 1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, -1 - 2**-8 - 2**-20, 3.0e38,
                  np.inf, -np.inf], dtype=np.float32)
    bits = st.float32_to_bf16_bits(x)
    assert bits.tolist() == [0x3F80, 0x3F80, 0x3F82, 0x3F81, 0xBF81, 0x7F62, 0x7F80, 0xFF80]
    assert np.isnan(st.bf16_bits_to_float32(st.float32_to_bf16_bits(np.array([np.nan]))))[0]


@pytest.mark.parametrize("dtype,np_dtype", [("F64", np.float64), ("F32", np.float32),
                                            ("F16", np.float16), ("BF16", None)])
def test_round_trip(tmp_path, dtype, np_dtype):
    rng = np.random.default_rng(7)
    tensors = {"model.embeddings.weight": rng.normal(size=(3, 8)), "w": rng.normal(size=(2, 1, 4)),
               "scalar": np.array(0.25), "empty": np.zeros((0, 3))}
    path = tmp_path / "t.safetensors"
    st.write_safetensors(path, tensors, dtype, metadata={"family": "rwkv7", "seed": 3})
    back, meta = st.read_safetensors(path)
    assert meta == {"family": "rwkv7", "seed": "3"}
    assert set(back) == set(tensors)
    for name, a in tensors.items():
        assert back[name].shape == a.shape
        if np_dtype is None:  # BF16: the float32 value with 8 significant bits, relative error ≤ 2^-9
            assert np.allclose(back[name], a, rtol=2**-8, atol=0)
            assert np.array_equal(st.float32_to_bf16_bits(back[name]), st.float32_to_bf16_bits(a.astype(np.float32)))
        else:
            assert back[name].dtype == np_dtype
            assert np.array_equal(back[name], a.astype(np_dtype))
    # data starts 8-byte aligned, the header says so
    data = path.read_bytes()
    assert (8 + struct.unpack("<Q", data[:8])[0]) % 8 == 0


def test_integer_dtypes_read(tmp_path):
    path = tmp_path / "i.safetensors"
    st.write_safetensors(path, {"i": np.array([-1, 2]), "u": np.array([255]), "b": np.array([True, False])},
                         dtypes={"i": "I64", "u": "U8", "b": "BOOL"})
    back, _ = st.read_safetensors(path)
    assert back["i"].tolist() == [-1, 2] and back["u"].tolist() == [255] and back["b"].tolist() == [True, False]


def test_malformed_fixtures():
    index = json.loads((FIXTURES / "malformed.json").read_text())
    assert set(index) == {"missing_tensor.safetensors", "misshaped_tensor.safetensors",
                          "truncated.safetensors", "header_past_end.safetensors"}
    # the container is well formed in the first two (the importer refuses them by name)
    t, _ = st.read_safetensors(FIXTURES / "missing_tensor.safetensors")
    assert index["missing_tensor.safetensors"]["tensor"] not in t
    t, _ = st.read_safetensors(FIXTURES / "misshaped_tensor.safetensors")
    assert t[index["misshaped_tensor.safetensors"]["tensor"]].shape == (4, 7)
    with pytest.raises(st.SafetensorsError, match=index["truncated.safetensors"]["tensor"]):
        st.read_safetensors(FIXTURES / "truncated.safetensors")
    with pytest.raises(st.SafetensorsError, match="header length 1328 runs past the end"):
        st.read_safetensors(FIXTURES / "header_past_end.safetensors")


def _file(header):
    return struct.pack("<Q", len(header)) + header


@pytest.mark.parametrize("data,message", [
    (b"\x01\x02", "8-byte header length"),
    (_file(b"[]"), "not a JSON object"),
    (_file(b"{x}"), "not JSON"),
    (_file(b'{"a":{"dtype":"F99","shape":[],"data_offsets":[0,0]}}'), "tensor 'a': unknown dtype 'F99'"),
    (_file(b'{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}}'), "not a list of sizes"),
    (_file(b'{"a":{"dtype":"F32","shape":[2]}}'), "expected {dtype, shape, data_offsets}"),
    (_file(b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}') + bytes(4), "do not hold F32"),
    (_file(b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}') + bytes(4), "within the 4 data bytes"),
])
def test_reader_diagnostics(data, message):
    with pytest.raises(st.SafetensorsError, match=message):
        st.parse_safetensors(data)
