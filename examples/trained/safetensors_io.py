"""A small safetensors writer and reader on numpy (no other dependency).

The format (https://huggingface.co/docs/safetensors): an 8-byte little-endian unsigned header
length N, then N bytes of UTF-8 JSON

    {"__metadata__": {"key": "value", ...},
     "name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...}

then the tensor bytes: each tensor row-major, little-endian, at [8 + N + begin, 8 + N + end).
The writer puts "__metadata__" first, the tensors in name order, packed back to back, and pads
the header with spaces so that the data starts at a multiple of 8 (as the reference writer does).

Float dtypes: F64, F32, F16 (IEEE binary16, numpy's float16 conversion, round to nearest even)
and BF16 (the upper 16 bits of the float32, rounded to nearest even on the 16 dropped bits).
The reader also reads I64 I32 I16 I8 U8 BOOL as numpy integer/bool arrays.

    write_safetensors(path, {"x": np.zeros((2, 3))}, dtype="F32", metadata={"family": "rwkv7"})
    tensors, metadata = read_safetensors(path)     # BF16 comes back as float32
"""

import json
import struct

import numpy as np

# dtype name -> numpy little-endian dtype of the stored bytes (BF16 is stored as uint16 bits)
_DTYPES = {
    "F64": np.dtype("<f8"), "F32": np.dtype("<f4"), "F16": np.dtype("<f2"),
    "BF16": np.dtype("<u2"), "I64": np.dtype("<i8"), "I32": np.dtype("<i4"),
    "I16": np.dtype("<i2"), "I8": np.dtype("i1"), "U8": np.dtype("u1"), "BOOL": np.dtype("?"),
}


class SafetensorsError(ValueError):
    """A file that is not a well-formed safetensors file (the message says where and why)."""


def float32_to_bf16_bits(a):
    """bfloat16 bits (uint16) of float32(a): round to nearest even on the 16 dropped bits.

    u + 0x7FFF + (bit 16 of u) carries into the kept half exactly when the dropped half is above
    0x8000, or equal to it with the kept half odd. NaN stays a (quiet) NaN.
    """
    u = np.ascontiguousarray(a, dtype="<f4").view("<u4").astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(a, dtype=np.float32))
    return np.where(nan, ((u >> 16) | 0x0040).astype(np.uint16), rounded)


def bf16_bits_to_float32(bits):
    """float32 values of bfloat16 bits (exact: bf16 is the upper half of a float32)."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def encode(array, dtype):
    """The little-endian bytes of `array` stored as `dtype` ("F64", "F32", "F16", "BF16", ...)."""
    if dtype == "BF16":
        f32 = np.asarray(array, dtype=np.float64).astype(np.float32)
        return float32_to_bf16_bits(f32).astype("<u2").tobytes()
    if dtype not in _DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; expected one of {', '.join(_DTYPES)}")
    return np.ascontiguousarray(array).astype(_DTYPES[dtype]).tobytes()


def safetensors_bytes(tensors, dtype="F32", metadata=None, dtypes=None):
    """The bytes of a safetensors file holding `tensors` ({name: array}).

    Every tensor is stored as `dtype` unless `dtypes` ({name: dtype}) says otherwise; metadata is
    a {str: str} dict (the format allows only strings there).
    """
    dtypes = dtypes or {}
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    blobs, offset = [], 0
    for name in sorted(tensors):
        a = np.asarray(tensors[name])
        dt = dtypes.get(name, dtype)
        blob = encode(a, dt)
        header[name] = {"dtype": dt, "shape": list(a.shape), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-(8 + len(text)) % 8)  # the data starts 8-byte aligned
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def write_safetensors(path, tensors, dtype="F32", metadata=None, dtypes=None):
    """Write `tensors` to `path` (see safetensors_bytes)."""
    data = safetensors_bytes(tensors, dtype, metadata, dtypes)
    with open(path, "wb") as f:
        f.write(data)


def parse_safetensors(data, name="<bytes>"):
    """(tensors, metadata) from the bytes of a safetensors file; raises SafetensorsError.

    Float tensors come back in their stored precision (F64 float64, F32 and BF16 float32, F16
    float16); call .astype(np.float64) for exact float64 values.
    """
    if len(data) < 8:
        raise SafetensorsError(f"{name}: {len(data)} bytes; a safetensors file starts with an 8-byte "
                               "header length")
    (n,) = struct.unpack("<Q", data[:8])
    if n > len(data) - 8:
        raise SafetensorsError(f"{name}: header length {n} runs past the end of the file ({len(data)} bytes)")
    try:
        header = json.loads(data[8:8 + n].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SafetensorsError(f"{name}: the header is not JSON ({e})") from None
    if not isinstance(header, dict):
        raise SafetensorsError(f"{name}: the header is not a JSON object")
    metadata = header.pop("__metadata__", {}) or {}
    body = data[8 + n:]
    tensors = {}
    for key, entry in header.items():
        where = f"{name}: tensor {key!r}"
        if not isinstance(entry, dict) or set(entry) != {"dtype", "shape", "data_offsets"}:
            raise SafetensorsError(f"{where}: expected {{dtype, shape, data_offsets}}")
        dt, shape, (begin, end) = entry["dtype"], entry["shape"], entry["data_offsets"]
        if dt not in _DTYPES:
            raise SafetensorsError(f"{where}: unknown dtype {dt!r}")
        if not all(isinstance(s, int) and s >= 0 for s in shape):
            raise SafetensorsError(f"{where}: shape {shape} is not a list of sizes")
        size = int(np.prod(shape, dtype=np.int64)) * _DTYPES[dt].itemsize
        if not (0 <= begin <= end <= len(body)) or end - begin != size:
            raise SafetensorsError(f"{where}: data_offsets [{begin}, {end}] do not hold {dt} {shape} "
                                   f"({size} bytes) within the {len(body)} data bytes")
        a = np.frombuffer(body, dtype=_DTYPES[dt], count=size // _DTYPES[dt].itemsize, offset=begin)
        if dt == "BF16":
            a = bf16_bits_to_float32(a)
        tensors[key] = a.reshape(shape).copy()
    return tensors, metadata


def read_safetensors(path):
    """(tensors, metadata) of the safetensors file at `path` (see parse_safetensors)."""
    with open(path, "rb") as f:
        return parse_safetensors(f.read(), str(path))
