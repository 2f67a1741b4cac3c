#include "app/Commands.h"

#include "app/CommandLine.h"
#include "app/ProfileLoader.h"
#include "app/TextTable.h"
#include "engine/mirror/JobProgress.h"
#include "model/profile/ProfileSupport.h"

#include <QJsonValue>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>

namespace md {

namespace {

using profile_detail::formatTimestamp;
using profile_detail::parseTimestamp;

constexpr int kResetTimeoutMs = 30000;

const char kResetUsage[] =
    "usage: mirrordesk reset FILE.mirrorjob --to earliest|latest|TIME [--topic REGEX] [--dry-run]\n"
    "\n"
    "Rewrites the job's progress (the committed offsets of its source consumer group) so that\n"
    "the next run copies from there. Every partition of every mirrored topic gets a committed\n"
    "offset, also those that had none. Refused while the group has active members: stop the\n"
    "job's instances first.\n"
    "\n"
    "  --to earliest        each partition's log start: copy everything again\n"
    "  --to latest          each partition's end: copy only what arrives from now on\n"
    "  --to TIME            the first record at or after an ISO 8601 time with a zone\n"
    "                       (e.g. 2026-11-01T00:00:00Z); the end when there is none\n"
    "  --topic REGEX        only mirrored topics whose whole name matches REGEX\n"
    "  --dry-run            show the new positions, write nothing\n"
    "  -h, --help           this text\n"
    "\n"
    "exit codes: 0 done (or dry run), 1 refused or failed, 2 usage or profile error\n";

// "Empty", "Stable", ...; a group that does not exist (yet) says so.
QString groupStateText(const JobProgress &p)
{
    return p.groupState == QLatin1String("Dead") && p.members.isEmpty() ? QStringLiteral("no such group yet")
                                                                        : p.groupState;
}

// One line per partition, columns aligned.
void printTable(const JobProgress &plan, QTextStream &out)
{
    const QStringList header = {QStringLiteral("TOPIC"), QStringLiteral("PARTITION"), QStringLiteral("COMMITTED"),
                                QStringLiteral("NEW POSITION"), QStringLiteral("TO COPY")};
    QList<QStringList> rows;
    for (const PartitionStart &p : plan.partitions)
        rows.append({p.topic, QString::number(p.partition),
                     p.committed >= 0 ? formatNumber(p.committed) : QStringLiteral("none"), formatNumber(p.start),
                     formatNumber(p.toCopy)});
    rows.prepend(header);
    printTextTable(rows, out);
}

} // namespace

int runResetCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("reset"), QString());
    cli.setHelpText(QString::fromLatin1(kResetUsage));
    const QCommandLineOption to(QStringLiteral("to"), QStringLiteral("earliest, latest or an ISO 8601 time"),
                                QStringLiteral("position"));
    const QCommandLineOption topic(QStringLiteral("topic"), QStringLiteral("only topics matching REGEX"),
                                   QStringLiteral("regex"));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"), QStringLiteral("write nothing"));
    cli.addOptions({to, topic, dryRun});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;
    const QCommandLineParser &parser = cli.parser();
    const QStringList files = parser.positionalArguments();
    if (!parser.isSet(to))
        return cli.usageError(err, QStringLiteral("--to is required (earliest, latest or an ISO 8601 time)"));
    if (parser.values(to).size() > 1)
        return cli.usageError(err, QStringLiteral("--to given more than once"));

    ResetRequest request;
    const QString position = parser.value(to).trimmed();
    QString toText = position;
    if (position.compare(QLatin1String("earliest"), Qt::CaseInsensitive) == 0) {
        request.to = ResetRequest::To::Earliest;
        toText = QStringLiteral("earliest");
    } else if (position.compare(QLatin1String("latest"), Qt::CaseInsensitive) == 0) {
        request.to = ResetRequest::To::Latest;
        toText = QStringLiteral("latest");
    } else {
        QString why;
        if (!parseTimestamp(QJsonValue(position), &request.timestamp, &why))
            return cli.usageError(err, QStringLiteral("--to: %1; expected earliest, latest or a time").arg(why));
        request.to = ResetRequest::To::Timestamp;
        toText = QStringLiteral("the first record at or after ") + formatTimestamp(request.timestamp);
    }
    if (parser.isSet(topic)) {
        request.topicPattern = parser.value(topic);
        const QRegularExpression re(QRegularExpression::anchoredPattern(request.topicPattern));
        if (request.topicPattern.isEmpty() || !re.isValid())
            return cli.usageError(err, QStringLiteral("--topic: invalid regular expression \"%1\"%2")
                                           .arg(request.topicPattern,
                                                re.isValid() ? QString() : QStringLiteral(": ") + re.errorString()));
    }

    const QString path = files.first();
    const std::optional<MirrorJobSpec> spec = loadJobSpec(path, nullptr, err);
    if (!spec) {
        err << "mirrordesk reset: " << path << " has errors\n";
        err.flush();
        return 2;
    }

    const JobProgress plan = planReset(*spec, request, kResetTimeoutMs);
    if (!plan.ok) {
        err << "mirrordesk reset: cannot plan the reset: " << plan.error << '\n';
        err.flush();
        return 1;
    }
    out << "job \"" << spec->name << "\", group " << plan.groupId << " (" << groupStateText(plan);
    if (!plan.members.isEmpty())
        out << ", " << plan.members.size() << (plan.members.size() == 1 ? " member: " : " members: ")
            << plan.members.join(QStringLiteral(", "));
    out << "), reset to " << toText << ":\n";
    if (plan.partitions.isEmpty()) {
        out.flush();
        err << "mirrordesk reset: nothing to reset: "
            << (request.topicPattern.isEmpty()
                    ? QStringLiteral("the job mirrors no topic")
                    : QStringLiteral("no mirrored topic matches --topic ") + request.topicPattern)
            << '\n';
        err.flush();
        return 1;
    }
    printTable(plan, out);
    const qint64 partitions = plan.partitions.size();
    const QString counted = QStringLiteral("%1 partition%2, %3 records to copy")
                                .arg(formatNumber(partitions), partitions == 1 ? QString() : QStringLiteral("s"),
                                     formatNumber(plan.totalToCopy()));
    if (parser.isSet(dryRun)) {
        out << "dry run: " << counted << "; nothing written\n";
        out.flush();
        if (plan.groupActive())
            err << "warning: group " << plan.groupId << " has active members now: the reset itself would be refused\n";
        err.flush();
        return 0;
    }
    out.flush();
    const ResetOutcome outcome = applyReset(*spec, plan, kResetTimeoutMs);
    if (!outcome.ok) {
        err << "mirrordesk reset: " << outcome.error << '\n';
        err.flush();
        return 1;
    }
    out << "reset group " << plan.groupId << ": " << counted << "; " << formatNumber(outcome.partitionsWritten)
        << " committed offsets written\n";
    out.flush();
    return 0;
}

} // namespace md
