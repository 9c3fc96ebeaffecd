#include "mr_signing.h"

#include <errno.h>
#include <gmp.h>
#include <nettle/ecc-curve.h>
#include <nettle/ecc.h>
#include <nettle/ecdsa.h>
#include <nettle/sha2.h>
#include <string.h>

#if defined(__APPLE__)
#include <stdlib.h>
#else
#include <sys/random.h>
#endif

/// The nonce's source: the system's, and whether it ever failed (Nettle's callback cannot say so).
struct mr_random_source {
  int failed;
};

static void mr_random(void *context, size_t length, uint8_t *destination) {
  struct mr_random_source *source = context;
#if defined(__APPLE__)
  arc4random_buf(destination, length);
#else
  size_t filled = 0;
  while (filled < length) {
    ssize_t n = getrandom(destination + filled, length - filled, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      memset(destination + filled, 0, length - filled);
      source->failed = 1;
      return;
    }
    filled += (size_t)n;
  }
#endif
}

/// The scalar as a key of the curve; 0 when it is not one (0, or at least the group's order).
static int mr_p256_key(struct ecc_scalar *key, const uint8_t scalar[32]) {
  ecc_scalar_init(key, nettle_get_secp_256r1());
  mpz_t value;
  mpz_init(value);
  mpz_import(value, 32, 1, 1, 1, 0, scalar);
  int valid = ecc_scalar_set(key, value);
  mpz_clear(value);
  return valid;
}

int mr_p256_scalar_is_valid(const uint8_t scalar[32]) {
  struct ecc_scalar key;
  int valid = mr_p256_key(&key, scalar);
  ecc_scalar_clear(&key);
  return valid;
}

/// `value` as 32 big-endian bytes (a P-256 signature's half is below the group's order).
static void mr_export32(mpz_srcptr value, uint8_t out[32]) {
  memset(out, 0, 32);
  size_t bytes = (mpz_sizeinbase(value, 2) + 7) / 8;
  if (mpz_sgn(value) == 0 || bytes > 32) return;
  size_t written = 0;
  mpz_export(out + 32 - bytes, &written, 1, 1, 1, 0, value);
}

int mr_es256_sign(const uint8_t scalar[32], const uint8_t *message, size_t length, uint8_t signature[64]) {
  struct ecc_scalar key;
  if (!mr_p256_key(&key, scalar)) {
    ecc_scalar_clear(&key);
    return -1;
  }
  uint8_t digest[SHA256_DIGEST_SIZE];
  struct sha256_ctx hash;
  sha256_init(&hash);
  sha256_update(&hash, length, message);
  sha256_digest(&hash, sizeof digest, digest);

  struct dsa_signature result;
  dsa_signature_init(&result);
  struct mr_random_source source = {0};
  ecdsa_sign(&key, &source, mr_random, sizeof digest, digest, &result);
  ecc_scalar_clear(&key);
  if (source.failed) {
    dsa_signature_clear(&result);
    memset(signature, 0, 64);
    return -2;
  }
  mr_export32(result.r, signature);
  mr_export32(result.s, signature + 32);
  dsa_signature_clear(&result);
  return 0;
}
