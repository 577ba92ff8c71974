/* the 128-bit kernel of polymul-128/zbkc (one source, shared by reference) */
#include "../../polymul-128/zbkc/polymul128.S"
