/* The process-wide state (core/proc.h); runtime/init.c fills it in. */
#include "core/proc.h"

ft_state_t ftg = {.lock = PTHREAD_MUTEX_INITIALIZER};
