// libdeflate (Debian's libdeflate-dev): whole-buffer DEFLATE/gzip decompression, about twice as fast as
// zlib's inflate on the small .json.gz files payload dumps are made of. Streams use ISA-L (CIsal).
#include <libdeflate.h>
