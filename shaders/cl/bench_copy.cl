// The bandwidth yardstick of tetlab-bench (app/bench/device_bandwidth.cpp):
// a plain float4 copy, one work-item per element, so the solve kernels'
// traffic is compared with what this device moves when it does nothing else.
__kernel void bench_copy(__global const float4* src, __global float4* dst, const uint count) {
  const uint i = get_global_id(0);
  if (i >= count) return;  // global size is rounded up to the work-group size
  dst[i] = src[i];
}
