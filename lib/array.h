/*
 * ARRAY_SIZE that refuses a pointer: sizeof(p) / sizeof(p[0]) of a pointer
 * compiles and gives a wrong count, so a pointer here is a compile error
 * (as util-linux's include/c.h does it).
 */
#ifndef HDPARM_ARRAY_H
#define HDPARM_ARRAY_H

/* A compile error (a negative bit-field width) where e is true; 0 otherwise. */
#define BUILD_BUG_ON_ZERO(e) ((int)sizeof(struct { int : (-!!(e)); }))
#define IS_ARRAY(a) (!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + (size_t)BUILD_BUG_ON_ZERO(!IS_ARRAY(a)))

#endif
