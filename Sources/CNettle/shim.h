// Nettle's SHA-256, which the library's digests use (Nettle and GMP are on every Debian system apt
// runs on; its x86-64 build takes the processor's SHA instructions where there are some). The ES256
// signature of App Store Connect's tokens is the C shim CMetricsSigning, over Nettle's ECDSA.
#include <nettle/sha2.h>
