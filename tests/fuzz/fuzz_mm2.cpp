// libFuzzer target: the mm2.properties importer (Java properties syntax, JAAS
// lines, flows), then what becomes of each imported profile (write, validate,
// export back to MM2).
#include "JobProfile.h"
#include "Mm2Properties.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

using namespace md;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    QList<JavaPropertiesError> errors;
    (void)parseJavaProperties(bytes, &errors);

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
