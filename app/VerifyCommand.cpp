#include "Commands.h"

#include "ProfileLoader.h"
#include "Verifier.h"

namespace md {

int runVerifyCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const auto usage = [&err](const QString &problem) {
        err << "mirrordesk verify: " << problem << '\n'
            << "usage: mirrordesk verify FILE.mirrorjob [--topic REGEX] [--timeout SECONDS]\n";
        err.flush();
        return 2;
    };
    QString path;
    VerifyOptions options;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--topic") || a == QLatin1String("--timeout")) {
            if (i + 1 >= args.size())
                return usage(a + QStringLiteral(" needs a value"));
            const QString value = args.at(++i);
            if (a == QLatin1String("--topic")) {
                options.topicFilter = value;
            } else {
                bool ok = false;
                const double seconds = value.toDouble(&ok);
                if (!ok || seconds <= 0 || seconds > 3600)
                    return usage(QStringLiteral("--timeout: not a number of seconds between 0 and 3600: ") + value);
                options.idleTimeoutMs = int(seconds * 1000);
                options.connectTimeoutMs = std::min(options.connectTimeoutMs, options.idleTimeoutMs);
            }
        } else if (a.startsWith(QLatin1Char('-'))) {
            return usage(QStringLiteral("unknown option ") + a);
        } else if (path.isEmpty()) {
            path = a;
        } else {
            return usage(QStringLiteral("more than one profile given"));
        }
    }
    if (path.isEmpty())
        return usage(QStringLiteral("no profile given"));

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
