/* Life cycle of derived datatypes: allocation, handles, release. */
#include "core/err_cause.h"
#include "core/dt_internal.h"

#include <stdlib.h>

#include "core/attr.h"

dt_t *dt_alloc(void)
{
    dt_t *dt = calloc(1, sizeof(*dt));
    if (!dt)
        return NULL;
    dt->handle = MPI_DATATYPE_NULL;
    dt->refcount = 1;
    dt->align = 1;
    return dt;
}

int dt_publish(dt_t *dt)
{
    int h = handle_alloc(&dt_table, dt);
    if (h < 0)
        return MPI_ERR_NO_MEM;
    dt->handle = h;
    dt->urefs = 1;
    return MPI_SUCCESS;
}

static int user_free(dt_t *dt)
{
    int rc = MPI_SUCCESS;
    if (--dt->urefs == 0) {
        dt->freed = 1;
        rc = attr_clear(KV_TYPE, &dt->attrs, dt->handle);
    }
    dt_release(dt);
    return rc;
}

static int is_f90(const dt_t *dt)
{
    const dt_env_t *e = dt->envelope;
    return e && (e->combiner == MPI_COMBINER_F90_REAL || e->combiner == MPI_COMBINER_F90_COMPLEX ||
                 e->combiner == MPI_COMBINER_F90_INTEGER);
}

int dt_user_free(dt_t *dt)
{
    if (dt->predefined || dt->urefs <= 0)
        return MPI_ERR_TYPE;
    if (is_f90(dt))
        return err_cause(MPI_ERR_TYPE, "a type from MPI_Type_create_f90_* stands for a "
                                       "predefined type and cannot be freed");
    return user_free(dt);
}

void dt_f90_free(dt_t *dt)
{
    if (is_f90(dt) && dt->urefs > 0)
        user_free(dt);
}

void dt_release(dt_t *dt)
{
    if (dt->predefined)
        return;
    if (--dt->refcount > 0)
        return;
    if (dt->attrs)
        attr_drop(KV_TYPE, &dt->attrs);
    if (dt->handle != MPI_DATATYPE_NULL)
        handle_release(&dt_table, dt->handle);
    dt_prog_free(&dt->raw);
    dt_prog_free(&dt->typed);
    dt_env_free(dt->envelope);
    free(dt);
}
