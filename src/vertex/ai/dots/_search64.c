/* The search on sets of 64 bits: boards of up to 64 lines (`_search.h`). */
#define W 64
#include "_search.h"
