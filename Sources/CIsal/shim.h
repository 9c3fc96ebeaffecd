// ISA-L's igzip (Debian's libisal-dev): streaming DEFLATE decompression about three times as fast as
// zlib's inflate, for gzip NDJSON streams (a window at a time, flat memory). Whole files use
// libdeflate; zlib stays the fallback for what libdeflate refuses.
#include <isa-l/igzip_lib.h>
