/* Build probe: compiles and links only when OpenCL headers and loader exist. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
int main(void)
{
    cl_uint n;
    return (int)clGetPlatformIDs(0, 0, &n);
}
