#include "app/Commands.h"

#include "app/CommandLine.h"
#include "app/ProfileLoader.h"
#include "engine/verify/Verifier.h"

#include <algorithm>

namespace md {

int runVerifyCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("verify"), QStringLiteral("FILE.mirrorjob [--topic REGEX] [--timeout SECONDS]"));
    cli.setDescription(
        QStringLiteral("Compares what the job mirrored, partition by partition: the target must hold the source's\n"
                       "records in order. A run replayed after an at-least-once restart is a warning; for a job\n"
                       "with delivery exactly-once any duplicate is a difference."));
    const QCommandLineOption topic(QStringLiteral("topic"),
                                   QStringLiteral("only mirrored source topics whose whole name matches REGEX"),
                                   QStringLiteral("REGEX"));
    const QCommandLineOption timeout(QStringLiteral("timeout"),
                                     QStringLiteral("give up when a read makes no progress for this long\n"
                                                    "(default 30, at most 3600)"),
                                     QStringLiteral("SECONDS"));
    cli.addOptions({topic, timeout});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    cli.setFooter(QStringLiteral("exit codes: 0 every partition matches, 1 a difference, 2 could not compare"));
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;

    VerifyOptions options;
    if (cli.isSet(topic))
        options.topicFilter = cli.value(topic);
    if (cli.isSet(timeout)) {
        const QString value = cli.value(timeout);
        bool ok = false;
        const double seconds = value.toDouble(&ok);
        if (!ok || seconds <= 0 || seconds > 3600)
            return cli.usageError(err,
                                  QStringLiteral("--timeout: not a number of seconds between 0 and 3600: ") + value);
        options.idleTimeoutMs = int(seconds * 1000);
        options.connectTimeoutMs = std::min(options.connectTimeoutMs, options.idleTimeoutMs);
    }
    const QString path = cli.arguments().first();

    const std::optional<MirrorJobSpec> spec = loadJobSpec(path, nullptr, err);
    if (!spec) {
        err << "verify: cannot compare: " << path << " has errors\n";
        err.flush();
        return 2;
    }
    Verifier verifier(*spec, options);
    const VerifyReport report = verifier.run([&out](const PartitionVerdict &v) {
        out << v.toString() << '\n';
        out.flush();
    });
    for (const QString &w : report.warnings)
        err << "warning: " << w << '\n';
    err.flush();
    (report.completed ? out : err) << report.summary() << '\n';
    out.flush();
    err.flush();
    return report.exitCode();
}

} // namespace md
