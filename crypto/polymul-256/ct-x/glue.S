/* one Karatsuba level (two for 512) over the 128-bit kernel: the shared generated glue */
#include "../karatsuba256.S"
