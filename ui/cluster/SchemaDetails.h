#pragma once

#include "engine/schema/SchemaCatalog.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;

namespace md {

// The selected subject's side of the Schemas tab: a version picker, the
// version's id, type and compatibility, its references (a click opens the
// referenced subject) and the schema text, pretty-printed, read-only and
// monospace. It only shows what SchemasPanel fetched; it asks nothing itself.
class SchemaDetails final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchemaDetails)
public:
    explicit SchemaDetails(QWidget *parent = nullptr);

    void clear();
    // While a version is fetched: what is shown stays, greyed, under a "loading" line.
    void showLoading(const QString &subject, int version);
    void showDetail(const SubjectVersionDetail &detail, const QString &topicText);
    void showError(const QString &subject, const QString &message);

    QString subject() const { return m_subject; }
    int version() const { return m_version; } // the version shown (0: none)
    QComboBox *versionBox() const { return m_versionBox; }
    QLabel *idLabel() const { return m_id; }
    QLabel *typeLabel() const { return m_type; }
    QLabel *compatibilityLabel() const { return m_compatibility; }
    QLabel *topicLabel() const { return m_topic; }
    QListWidget *referenceList() const { return m_references; }
    QPlainTextEdit *textView() const { return m_text; }
    QString statusText() const;

Q_SIGNALS:
    // The user picked another version of the subject shown.
    void versionPicked(const QString &subject, int version);
    // A reference was clicked: show that subject at that version.
    void referenceActivated(const QString &subject, int version);

private:
    void setStatus(const QString &text, bool error);

    QString m_subject;
    int m_version = 0;
    QLabel *m_title;
    QComboBox *m_versionBox;
    QLabel *m_id;
    QLabel *m_type;
    QLabel *m_compatibility;
    QLabel *m_topic;
    QLabel *m_referencesNone;
    QListWidget *m_references;
    QPlainTextEdit *m_text;
    QLabel *m_status;
};

} // namespace md
