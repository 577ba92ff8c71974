/* the 128-bit kernel of polymul-128/ct-x (one source, shared by reference) */
#include "../../polymul-128/ct-x/polymul128.S"
