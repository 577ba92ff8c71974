/* HMAC over the sha256 API */
#include "../hmac.c"
