/* Constructor records of derived datatypes (get_envelope/get_contents). */
#include <stdlib.h>

void dt_envelope_free(void *envelope)
{
    free(envelope);
}
