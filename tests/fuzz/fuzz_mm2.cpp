// libFuzzer target: the mm2.properties importer (Java properties syntax, JAAS
// lines, flows), then what becomes of each imported profile (write, validate,
// export back to MM2).
#include "model/mm2/Mm2Properties.h"
#include "model/profile/JobProfile.h"

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <cstdint>

using namespace md;

// Qt JIT-compiles every pattern it compiles (three times: complete and both
// partial modes), and validate() compiles each regular expression of the
// profile to see whether it is valid. That JIT was a third of an input's own
// time; validity is decided by pcre2_compile alone, so the interpreter does.
extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    qputenv("QT_ENABLE_REGEXP_JIT", "0");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    // The importer parses the bytes with parseJavaProperties(bytes, &errors)
    // first, as this target once did on its own as well: that parse is not
    // repeated here.
    const Mm2ImportResult result = importMm2Properties(bytes, QStringLiteral("mm2.properties"));
    for (const Mm2Unmapped &u : result.unmapped)
        (void)u.toString();
    for (const Mm2Flow &flow : result.flows) {
        (void)flow.fileName();
        const QByteArray json = flow.profile.toJson();
        QList<ProfileIssue> issues;
        (void)JobProfile::fromJson(json, flow.fileName(), &issues);
        (void)flow.profile.validate();
        (void)exportMm2Properties(flow.profile);
    }
    return 0;
}
