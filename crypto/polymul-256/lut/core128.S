/* the 128-bit kernel of polymul-128/lut (one source, shared by reference) */
#include "../../polymul-128/lut/polymul128.S"
