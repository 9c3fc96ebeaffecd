// CMetricsSigning: ES256 (ECDSA over P-256 with SHA-256) for App Store Connect's tokens, over Nettle's
// ECDSA and GMP. Prefixed `mr_`; no Swift API of its own (AppStoreConnectKey calls it).
#ifndef MR_SIGNING_H
#define MR_SIGNING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why: a key is checked when it is read, not at its first request: 1 when the 32 bytes (big-endian)
/// are a P-256 private scalar (0 < d < n), 0 otherwise.
int mr_p256_scalar_is_valid(const uint8_t scalar[32]);

/// Why: the JWS of App Store Connect's tokens is ES256, and the package's other implementation of it,
/// swift-crypto, compiles BoringSSL (about two minutes of a first build) for one signature a request.
/// Signs the SHA-256 of `message` with the P-256 private scalar `scalar` (32 bytes, big-endian) and a
/// nonce from the system's random source, and writes R ‖ S, 32 bytes each, big-endian, to `signature`.
/// Returns 0; -1 when the scalar is not a P-256 private key; -2 when the system gave no randomness.
int mr_es256_sign(const uint8_t scalar[32], const uint8_t *message, size_t length, uint8_t signature[64]);

#ifdef __cplusplus
}
#endif

#endif
