#include "ui/job/JobDocument.h"

#include <QFile>
#include <QFileInfo>

namespace md {

JobDocument::JobDocument(QObject *parent) : QObject(parent)
{
    m_profile.name = tr("new job");
    m_profile.source.alias = QStringLiteral("source");
    m_profile.target.alias = QStringLiteral("target");
    m_profile.include = {QStringLiteral(".*")};
    m_savedJson = m_profile.toJson();
}

JobDocument *JobDocument::open(const QString &path, QString *error, QObject *parent)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QFile file(absolute);
    const QFileInfo info(absolute);
    if (!info.exists()) {
        *error = absolute + QStringLiteral(": file not found");
        return nullptr;
    }
    if (info.isDir() || !file.open(QIODevice::ReadOnly)) {
        *error =
            absolute + QStringLiteral(": cannot open: ") + (info.isDir() ? tr("is a directory") : file.errorString());
        return nullptr;
    }
    const QByteArray data = file.read(JobProfile::MaxFileSize + 1);
    QList<ProfileIssue> issues;
    JobProfile profile = JobProfile::fromJson(data, absolute, &issues);
    // Whole-file problems (syntax, encoding, size, version) leave nothing to edit;
    // meaning problems are what the editor is for.
    QStringList fatal;
    for (const ProfileIssue &i : std::as_const(issues)) {
        if (i.isError() && (i.keyPath.isEmpty() || i.keyPath == QLatin1String("mirrordesk")))
            fatal.append(i.toString());
    }
    if (!fatal.isEmpty()) {
        *error = fatal.join(QLatin1Char('\n'));
        return nullptr;
    }
    auto *doc = new JobDocument(parent);
    doc->m_path = absolute;
    doc->m_profile = profile;
    // Compare with the canonical form: opening a hand-written file is not a change.
    doc->m_savedJson = profile.toJson();
    return doc;
}

QString JobDocument::displayName() const
{
    return isUntitled() ? tr("Untitled") : QFileInfo(m_path).fileName();
}

void JobDocument::setProfile(const JobProfile &profile)
{
    m_profile = profile;
    m_profile.fileName = m_path;
    updateModified();
}

bool JobDocument::isModified() const
{
    return m_modified;
}

QList<ProfileIssue> JobDocument::issues() const
{
    QList<ProfileIssue> issues;
    JobProfile::fromJson(m_profile.toJson(), isUntitled() ? displayName() : m_path, &issues);
    return issues;
}

void JobDocument::setPendingSecret(const PendingSecret &secret)
{
    clearPendingSecret(secret.keyPath);
    m_pending.append(secret);
    updateModified();
}

void JobDocument::clearPendingSecret(const QString &keyPath)
{
    m_pending.removeIf([&](const PendingSecret &s) { return s.keyPath == keyPath; });
    updateModified();
}

void JobDocument::clearPendingSecrets()
{
    m_pending.clear();
    updateModified();
}

bool JobDocument::saveTo(const QString &path, QString *error)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    JobProfile p = m_profile;
    p.fileName = absolute;
    if (!p.save(absolute, error))
        return false;
    const bool moved = absolute != m_path;
    m_path = absolute;
    m_profile.fileName = absolute;
    m_savedJson = m_profile.toJson();
    updateModified();
    if (moved)
        Q_EMIT pathChanged(m_path);
    return true;
}

void JobDocument::updateModified()
{
    const bool modified = !m_pending.isEmpty() || m_profile.toJson() != m_savedJson;
    if (modified == m_modified)
        return;
    m_modified = modified;
    Q_EMIT modifiedChanged(modified);
}

} // namespace md
