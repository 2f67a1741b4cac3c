// A librdkafka plugin that only leaves a mark: when it is loaded, it creates
// the file named by MD_TEST_PLUGIN_MARK. unit/tst_clientproperties uses it to
// show that a refused property never gets as far as loading code.
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace {
struct Mark {
    Mark()
    {
        if (const char *path = std::getenv("MD_TEST_PLUGIN_MARK")) {
            if (std::FILE *f = std::fopen(path, "w"))
                std::fclose(f);
        }
    }
} const mark;
} // namespace

// The entry point librdkafka looks up after loading a plugin:
// rd_kafka_resp_err_t conf_init(rd_kafka_conf_t *, void **, char *, size_t), 0 for no error.
// Declared without librdkafka's header, which a module needs nothing else of.
extern "C" __attribute__((visibility("default"))) int conf_init(void *, void **plugOpaque, char *, std::size_t)
{
    *plugOpaque = nullptr;
    return 0;
}
