#include "Mm2Commands.h"

#include "JobProfile.h"
#include "Mm2Properties.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace md {

namespace {

const char kImportUsage[] = "usage: mirrordesk import-mm2 FILE --output DIR [--force]\n";
const char kExportUsage[] =
    "usage: mirrordesk export-mm2 FILE.mirrorjob [--output FILE] [--connect] [--replication-factor N | --single-broker]\n";

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
    QString input, outputDir;
    bool force = false;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--output") || a == QLatin1String("-o")) {
            if (++i >= args.size()) {
                err << "import-mm2: --output needs a directory\n" << kImportUsage;
                return 2;
            }
            outputDir = args.at(i);
        } else if (a == QLatin1String("--force")) {
            force = true;
        } else if (a.startsWith(QLatin1Char('-'))) {
            err << "import-mm2: unknown option " << a << '\n' << kImportUsage;
            return 2;
        } else if (input.isEmpty()) {
            input = a;
        } else {
            err << "import-mm2: one input file only\n" << kImportUsage;
            return 2;
        }
    }
    if (input.isEmpty() || outputDir.isEmpty()) {
        err << kImportUsage;
        return 2;
    }
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
            << namingPolicyName(f.profile.naming) << ", topics " << f.profile.include.join(QStringLiteral(", ")) << ")\n";
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
        out << "\nNot mapped (" << r.unmapped.size() << (r.unmapped.size() == 1 ? " line" : " lines") << " of " << input << "):\n";
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
    QString input, output;
    bool connect = false;
    Mm2ExportOptions options;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--output") || a == QLatin1String("-o")) {
            if (++i >= args.size()) {
                err << "export-mm2: --output needs a file name\n" << kExportUsage;
                return 2;
            }
            output = args.at(i);
        } else if (a == QLatin1String("--connect")) {
            connect = true;
        } else if (a == QLatin1String("--single-broker")) {
            options.replicationFactor = 1;
        } else if (a == QLatin1String("--replication-factor")) {
            bool ok = false;
            options.replicationFactor = ++i < args.size() ? args.at(i).toInt(&ok) : 0;
            if (!ok || options.replicationFactor < 1 || options.replicationFactor > 32767) {
                err << "export-mm2: --replication-factor needs a number from 1 to 32767\n" << kExportUsage;
                return 2;
            }
        } else if (a.startsWith(QLatin1Char('-'))) {
            err << "export-mm2: unknown option " << a << '\n' << kExportUsage;
            return 2;
        } else if (input.isEmpty()) {
            input = a;
        } else {
            err << "export-mm2: one profile only\n" << kExportUsage;
            return 2;
        }
    }
    if (input.isEmpty()) {
        err << kExportUsage;
        return 2;
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
