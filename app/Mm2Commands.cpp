#include "app/Mm2Commands.h"

#include "app/CommandLine.h"
#include "model/mm2/Mm2Properties.h"
#include "model/profile/JobProfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace md {

namespace {

bool readInput(const QString &path, QByteArray *data, QTextStream &err)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        err << path << ": cannot read: " << f.errorString() << '\n';
        return false;
    }
    if (f.size() > JobProfile::MaxFileSize) {
        err << path << ": too large for a properties file (" << f.size() << " bytes)\n";
        return false;
    }
    *data = f.readAll();
    return true;
}

bool writeAtomically(const QString &path, const QByteArray &data, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size() || !f.commit()) {
        *error = f.errorString();
        return false;
    }
    return true;
}

} // namespace

int runImportMm2Command(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("import-mm2"), QStringLiteral("FILE --output DIR [--force]"));
    cli.setDescription(
        QStringLiteral("Writes one DIR/<A>-to-<B>.mirrorjob per enabled flow of an mm2.properties, and lists the\n"
                       "lines it could not map and the environment variables to set for passwords."));
    const QCommandLineOption outputOption({QStringLiteral("o"), QStringLiteral("output")},
                                          QStringLiteral("the directory for the profiles (created if needed)"),
                                          QStringLiteral("DIR"));
    const QCommandLineOption forceOption(QStringLiteral("force"), QStringLiteral("replace profiles that exist"));
    cli.addOptions({outputOption, forceOption});
    cli.setArguments(QStringLiteral("mm2.properties file"), 1, 1);
    cli.setFooter(
        QStringLiteral("exit codes: 0 written, 1 nothing to import or a profile needs editing, 2 usage error,\n"
                       "unreadable input, or a profile exists (without --force)"));
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;
    const QString input = cli.arguments().first();
    const QString outputDir = cli.value(outputOption);
    const bool force = cli.isSet(forceOption);
    if (outputDir.isEmpty())
        return cli.usageError(err, QStringLiteral("--output DIR is required"));
    QByteArray data;
    if (!readInput(input, &data, err))
        return 2;
    const Mm2ImportResult r = importMm2Properties(data, input);
    if (!r.error.isEmpty()) {
        err << "import-mm2: " << r.error << '\n';
        return 1;
    }
    if (!QDir().mkpath(outputDir)) {
        err << "import-mm2: cannot create the directory " << outputDir << '\n';
        return 2;
    }
    QStringList paths;
    for (const Mm2Flow &f : r.flows) {
        const QString path = QDir(outputDir).filePath(f.fileName());
        if (!force && QFileInfo::exists(path)) {
            err << "import-mm2: " << path << " exists (use --force to replace it); nothing written\n";
            return 2;
        }
        paths << path;
    }
    int status = 0;
    for (qsizetype i = 0; i < r.flows.size(); ++i) {
        const Mm2Flow &f = r.flows.at(i);
        QString error;
        if (!f.profile.save(paths.at(i), &error)) {
            err << "import-mm2: " << paths.at(i) << ": " << error << '\n';
            return 2;
        }
        out << "wrote " << paths.at(i) << " (" << f.sourceAlias << " -> " << f.targetAlias << ", naming "
            << namingPolicyName(f.profile.naming) << ", topics " << f.profile.include.join(QStringLiteral(", "))
            << ")\n";
        for (const ProfileIssue &issue : f.profile.validate()) {
            if (!issue.isError())
                continue;
            ProfileIssue located = issue;
            located.file = paths.at(i);
            err << located.toString() << '\n';
            status = 1;
        }
    }
    if (!r.variables.isEmpty()) {
        out << "\nPasswords are not written to the profiles; set these environment variables before running them:\n";
        for (const Mm2SecretVariable &v : r.variables)
            out << "  " << v.name << "  " << v.description << '\n';
    }
    if (!r.unmapped.isEmpty()) {
        out << "\nNot mapped (" << r.unmapped.size() << (r.unmapped.size() == 1 ? " line" : " lines") << " of " << input
            << "):\n";
        for (const Mm2Unmapped &u : r.unmapped)
            out << "  " << u.toString() << '\n';
    }
    if (!r.notes.isEmpty()) {
        out << "\nNotes:\n";
        for (const QString &n : r.notes)
            out << "  " << n << '\n';
    }
    if (status != 0)
        err << "import-mm2: edit the profiles above to fix their errors before running them\n";
    return status;
}

int runExportMm2Command(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(
        QStringLiteral("export-mm2"),
        QStringLiteral("FILE.mirrorjob [--output FILE] [--connect] [--replication-factor N | --single-broker]"));
    cli.setDescription(
        QStringLiteral("Writes an equivalent MirrorMaker 2 configuration: an mm2.properties for dedicated mode\n"
                       "or, with --connect, MirrorSourceConnector JSON; on stdout unless --output is given."));
    const QCommandLineOption outputOption({QStringLiteral("o"), QStringLiteral("output")},
                                          QStringLiteral("write it into FILE (replaced atomically)"),
                                          QStringLiteral("FILE"));
    const QCommandLineOption connectOption(QStringLiteral("connect"),
                                           QStringLiteral("MirrorSourceConnector JSON for a Connect cluster"));
    const QCommandLineOption replicationOption(QStringLiteral("replication-factor"),
                                               QStringLiteral("of the topics MM2 creates, 1 to 32767 (default: MM2's,\n"
                                                              "which needs at least 3 brokers)"),
                                               QStringLiteral("N"));
    const QCommandLineOption singleBrokerOption(QStringLiteral("single-broker"),
                                                QStringLiteral("the same as --replication-factor 1"));
    cli.addOptions({outputOption, connectOption, replicationOption, singleBrokerOption});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    cli.setFooter(QStringLiteral("exit codes: 0 written, 1 the profile is invalid or has no MM2 equivalent,\n"
                                 "2 usage error or unreadable input"));
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;
    const QString input = cli.arguments().first();
    const QString output = cli.value(outputOption);
    const bool connect = cli.isSet(connectOption);
    Mm2ExportOptions options;
    if (cli.isSet(singleBrokerOption))
        options.replicationFactor = 1;
    if (cli.isSet(replicationOption)) {
        bool ok = false;
        options.replicationFactor = cli.value(replicationOption).toInt(&ok);
        if (!ok || options.replicationFactor < 1 || options.replicationFactor > 32767)
            return cli.usageError(err, QStringLiteral("--replication-factor needs a number from 1 to 32767"));
    }
    QList<ProfileIssue> issues;
    const std::optional<JobProfile> profile = JobProfile::load(input, &issues);
    for (const ProfileIssue &i : std::as_const(issues))
        err << i.toString() << '\n';
    if (!profile)
        return hasErrors(issues) && QFileInfo::exists(input) ? 1 : 2;

    const Mm2ExportResult r = connect ? exportMm2Connector(*profile, options) : exportMm2Properties(*profile, options);
    if (!r.error.isEmpty()) {
        err << "export-mm2: " << input << ": " << r.error << '\n';
        return 1;
    }
    if (output.isEmpty()) {
        out << QString::fromUtf8(r.data);
        out.flush();
    } else {
        QString error;
        if (!writeAtomically(output, r.data, &error)) {
            err << "export-mm2: " << output << ": " << error << '\n';
            return 2;
        }
        err << "wrote " << output << '\n';
    }
    for (const QString &n : r.notes)
        err << "note: " << n << '\n';
    return 0;
}

} // namespace md
