/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few helpers of the kernel's tools/include these tools use, so that
 * they also build outside a kernel tree.
 */
#ifndef PM_ASYNC_COMPILER_H
#define PM_ASYNC_COMPILER_H

#define __pma_attr(x)	__attribute__((x))

#ifndef __printf
#define __printf(a, b)	__pma_attr(format(printf, a, b))
#endif
#ifndef __noreturn
#define __noreturn	__pma_attr(noreturn)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))
#endif

#endif /* PM_ASYNC_COMPILER_H */
