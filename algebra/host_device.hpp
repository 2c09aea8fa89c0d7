// Marks functions whose one definition is shared by the CPU and the CUDA evaluators
// (DESIGN.md: "write each gate operation once as a __host__ __device__ function").
#pragma once

#if defined(__CUDACC__)
#define RNNCC_HD __host__ __device__ inline
#else
#define RNNCC_HD inline
#endif
