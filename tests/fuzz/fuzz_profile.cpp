// libFuzzer target: the *.mirrorjob parser (JobProfile::fromJson), what it
// hands on (issue texts, validate, toJson, toSpec, the MM2 export) and the
// round trip of a profile parsed without findings.
#include "model/mm2/Mm2Properties.h"
#include "model/profile/JobProfile.h"

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

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
    QList<ProfileIssue> issues;
    const JobProfile profile = JobProfile::fromJson(bytes, QStringLiteral("fuzz.mirrorjob"), &issues);
    for (const ProfileIssue &issue : issues)
        (void)issue.toString();
    (void)profile.hasClearSecret();

    const QByteArray written = profile.toJson();
    QList<ProfileIssue> again;
    JobProfile reread = JobProfile::fromJson(written, QStringLiteral("fuzz.mirrorjob"), &again);
    // What the app writes it must read back as the same profile.
    if (issues.isEmpty() && !(reread == profile)) {
        std::fprintf(stderr, "round trip changed the profile:\n%s\n", written.constData());
        std::abort();
    }

    // Every reference resolves to a fixed text; env references read the (fuzzer's) environment.
    const ReferenceResolver resolver = [](const QString &, const QString &arg, QString *) -> std::optional<QString> {
        return arg;
    };
    QList<ProfileIssue> specIssues;
    (void)profile.toSpec(resolver, &specIssues);
    if (!hasErrors(issues)) {
        (void)exportMm2Properties(profile);
        (void)exportMm2Connector(profile);
    }
    return 0;
}
