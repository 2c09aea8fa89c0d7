// Marks functions whose one definition is shared by the CPU and the CUDA evaluators: each gate
// operation is written once, as a __host__ __device__ function (docs/architecture.md,
// "Evaluators: the device program and its three executors").
#pragma once

#if defined(__CUDACC__)
#define RNNCC_HD __host__ __device__ inline
#else
#define RNNCC_HD inline
#endif
