/* the 128-bit kernel of polymul-128/ct (one source, shared by reference) */
#include "../../polymul-128/ct/polymul128.S"
