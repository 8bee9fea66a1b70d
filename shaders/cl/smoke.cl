// Smoke test for the OpenCL bring-up: y = a * x + y on float4 (one work-item
// per element). Used by tests/gpu to check build, upload, launch and download.
__kernel void smoke_saxpy(const float a, __global const float4* x, __global float4* y, const uint count) {
  const uint i = get_global_id(0);
  if (i >= count) return;  // global size is rounded up to the work-group size
  y[i] = a * x[i] + y[i];
}
