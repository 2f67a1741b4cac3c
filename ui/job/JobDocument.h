#pragma once

#include "model/profile/JobProfile.h"

#include <QList>
#include <QObject>
#include <QString>

namespace md {

// A password typed into the editor that belongs in the system keychain. It
// lives only in memory until the document is saved; the profile itself holds
// the "${keychain:key}" reference.
struct PendingSecret {
    QString keyPath;     // "source.sasl.password"
    QString keychainKey; // the KEY of ${keychain:KEY}
    QString value;
};

// One open job profile: where it lives (or untitled), its current contents,
// and whether they differ from what was last saved. "Modified" compares the
// bytes a save would write with the bytes last read or written, so undoing an
// edit back to the saved text clears it again.
class JobDocument final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobDocument)
public:
    // A new, untitled profile with the defaults a user would start from.
    explicit JobDocument(QObject *parent = nullptr);
    // Reads `path` for editing. Meaning errors are fine (the editor shows them);
    // a file that cannot be read or is not a profile at all gives nullptr and
    // *error names the file, line and column.
    static JobDocument *open(const QString &path, QString *error, QObject *parent = nullptr);

    QString path() const { return m_path; } // absolute; empty while untitled
    bool isUntitled() const { return m_path.isEmpty(); }
    QString displayName() const; // file name, or "Untitled"

    const JobProfile &profile() const { return m_profile; }
    void setProfile(const JobProfile &profile);
    bool isModified() const;

    // The findings of `mirrordesk check` for this profile as it would be saved
    // (same parser, same messages, same file name and positions).
    QList<ProfileIssue> issues() const;

    void setPendingSecret(const PendingSecret &secret);
    void clearPendingSecret(const QString &keyPath);
    QList<PendingSecret> pendingSecrets() const { return m_pending; }
    void clearPendingSecrets();

    // Writes the profile atomically (JobProfile::save: owner-only when it holds
    // a clear secret). Pending keychain secrets must have been stored first.
    bool saveTo(const QString &path, QString *error);

Q_SIGNALS:
    void modifiedChanged(bool modified);
    void pathChanged(const QString &path);

private:
    void updateModified();

    QString m_path;
    JobProfile m_profile;
    QByteArray m_savedJson;
    QList<PendingSecret> m_pending;
    bool m_modified = false;
};

} // namespace md
