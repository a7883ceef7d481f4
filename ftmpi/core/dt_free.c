/* Releasing derived datatypes. */
#include "datatype.h"

#include <stdlib.h>

#include "util/handle.h"

extern handle_table_t dt_table;
void dt_envelope_free(void *envelope);

void dt_release(dt_t *dt)
{
    if (dt->predefined)
        return;
    if (--dt->refcount > 0)
        return;
    free(dt->blocks);
    free(dt->prefix);
    dt_envelope_free(dt->envelope);
    free(dt);
}
