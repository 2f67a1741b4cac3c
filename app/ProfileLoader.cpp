#include "app/ProfileLoader.h"

#include "engine/sandbox/Sandbox.h"

#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <qt6keychain/keychain.h>

namespace md {

namespace {
const QString kKeychainService = QStringLiteral("MirrorDesk");

void printIssues(const QList<ProfileIssue> &issues, QTextStream &err)
{
    for (const ProfileIssue &i : issues)
        err << i.toString() << Qt::endl;
}
} // namespace

std::optional<QString> readKeychainSecret(const QString &id, QString *error)
{
    QKeychain::ReadPasswordJob job(kKeychainService);
    job.setAutoDelete(false);
    job.setKey(id);
    QEventLoop loop;
    bool done = false;
    QObject::connect(&job, &QKeychain::Job::finished, &loop, [&] {
        done = true;
        loop.quit();
    });
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    job.start();
    if (!done)
        loop.exec();
    if (!done) {
        *error = QStringLiteral("the system keychain did not answer within 10 s");
        return std::nullopt;
    }
    if (job.error() != QKeychain::NoError) {
        *error = QStringLiteral("system keychain: ") + job.errorString();
        return std::nullopt;
    }
    return job.textData();
}

ReferenceResolver makeResolver(const SandboxClusters *sandbox)
{
    return [sandbox](const QString &kind, const QString &arg, QString *error) -> std::optional<QString> {
        if (kind == QLatin1String("sandbox")) {
            if (!sandbox) {
                *error = QStringLiteral("this profile needs the sandbox clusters: run it with --sandbox");
                return std::nullopt;
            }
            return sandbox->resolve(arg, error);
        }
        if (kind == QLatin1String("keychain"))
            return readKeychainSecret(arg, error);
        *error = QStringLiteral("unknown reference kind \"") + kind + QStringLiteral("\"");
        return std::nullopt;
    };
}

std::optional<MirrorJobSpec> loadJobSpecFromData(const QByteArray &data, const QString &name,
                                                 const SandboxClusters *sandbox, QTextStream &err)
{
    QList<ProfileIssue> issues;
    JobProfile profile = JobProfile::fromJson(data, name, &issues);
    if (hasErrors(issues)) {
        printIssues(issues, err);
        return std::nullopt;
    }
    std::optional<MirrorJobSpec> spec = profile.toSpec(makeResolver(sandbox), &issues);
    printIssues(issues, err);
    return spec;
}

std::optional<MirrorJobSpec> loadSandboxDemoJob(SandboxClusters &sandbox, QTextStream &err)
{
    QFile demo(QStringLiteral(":/mirrordesk/examples/sandbox-demo.mirrorjob"));
    if (!demo.open(QIODevice::ReadOnly)) {
        err << "mirrordesk: the sandbox's demo job is missing from the build" << Qt::endl;
        return std::nullopt;
    }
    std::optional<MirrorJobSpec> spec =
        loadJobSpecFromData(demo.readAll(), QStringLiteral("sandbox-demo.mirrorjob"), &sandbox, err);
    if (spec)
        sandbox.prepareTarget(*spec);
    return spec;
}

std::optional<MirrorJobSpec> loadJobSpec(const QString &path, const SandboxClusters *sandbox, QTextStream &err)
{
    QList<ProfileIssue> issues;
    std::optional<JobProfile> profile = JobProfile::load(path, &issues);
    if (!profile) {
        printIssues(issues, err);
        return std::nullopt;
    }
    std::optional<MirrorJobSpec> spec = profile->toSpec(makeResolver(sandbox), &issues);
    printIssues(issues, err);
    return spec;
}

} // namespace md
