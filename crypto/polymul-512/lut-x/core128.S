/* the 128-bit kernel of polymul-128/lut-x (one source, shared by reference) */
#include "../../polymul-128/lut-x/polymul128.S"
