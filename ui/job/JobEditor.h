#pragma once

#include "model/profile/JobProfile.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;
class QUndoStack;

namespace md {

class JobDocument;
class ProfileEditCommand;
class PlanView;
class SecretField;
class SecretStore;

// The form for one job profile: every key of the file, validated as the user
// types with the messages of `mirrordesk check` (beside the field and in a
// list), and a live plan of what the job would do. It edits its JobDocument;
// saving, closing and running belong to the JobWorkspace around it.
class JobEditor final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JobEditor)
public:
    JobEditor(JobDocument *document, SecretStore *secrets, QWidget *parent = nullptr);
    ~JobEditor() override;

    JobDocument *document() const { return m_doc; }
    PlanView *planView() const { return m_plan; }
    // Every change of the form is one step here (typing into one field merges
    // into one step); its clean state follows the document's modified flag.
    QUndoStack *undoStack() const { return m_undo; }
    void setResolver(const ReferenceResolver &resolver);

    // The issues shown now (after the debounce); validateNow() skips the wait.
    QList<ProfileIssue> issues() const { return m_issues; }
    void validateNow();
    // The text shown beside the field of `keyPath` ("" when it has no issue).
    QString fieldIssueText(const QString &keyPath) const;
    // The widget that edits `keyPath` (issue paths like "topics.include[2]" included).
    QWidget *fieldFor(const QString &keyPath) const;

    // Turns every secret field that waits for the keychain to ${env:NAME}
    // (a name derived from the alias) or to clear text; used when the
    // keychain is unavailable at save time.
    void pendingSecretsToEnvironment();
    void pendingSecretsToClearText();
    // After a save stored the pending secrets: the fields now hold references.
    void secretsStored();

Q_SIGNALS:
    void runRequested();
    void browseRequested();
    void resetProgressRequested();

private:
    friend class ProfileEditCommand;
    struct SideWidgets;
    void applyProfile(const JobProfile &p); // undo/redo: the form, the document and the plan show p
    void syncPendingSecrets();              // the secret fields' keychain values into the document
    void buildForm();
    QWidget *buildSide(SideWidgets &w, const QString &side);
    void addRow(QFormLayout *form, const QString &label, QWidget *field, const QStringList &keyPaths);
    void load(const JobProfile &p);
    JobProfile collect() const;
    void edited();
    void showIssues();
    void updateEnabled();
    QList<SecretField *> secretFields() const; // both sides' passwords and tokens

    JobDocument *m_doc;
    QPointer<SecretStore> m_secrets;
    PlanView *m_plan = nullptr;
    ReferenceResolver m_resolver;
    QTimer *m_validateTimer;
    bool m_loading = false;
    QUndoStack *m_undo;
    bool m_applying = false; // inside an undo or redo
    JobProfile m_shown;      // what the form showed after the last recorded step

    struct SideWidgets {
        QLineEdit *alias = nullptr;
        QLineEdit *bootstrap = nullptr;
        QComboBox *security = nullptr;
        QComboBox *mechanism = nullptr;
        QLineEdit *username = nullptr;
        SecretField *password = nullptr;
        QLineEdit *sslCa = nullptr;
        QLineEdit *sslCert = nullptr;
        QLineEdit *sslKey = nullptr;
        SecretField *keyPassword = nullptr;
        // The schema registry: "auth" (none, basic, bearer) is the form's, the
        // profile only says it by which of username/password or token is set.
        QLineEdit *registryUrl = nullptr;
        QComboBox *registryAuth = nullptr;
        QLineEdit *registryUser = nullptr;
        SecretField *registryPassword = nullptr;
        SecretField *registryToken = nullptr;
        QLineEdit *registryCa = nullptr;
        QPlainTextEdit *properties = nullptr;
        QPlainTextEdit *consumerProperties = nullptr;
        QPlainTextEdit *producerProperties = nullptr;
        QPlainTextEdit *adminProperties = nullptr;
    };
    SideWidgets m_source;
    SideWidgets m_target;
    QLineEdit *m_name = nullptr;
    QPlainTextEdit *m_include = nullptr;
    QPlainTextEdit *m_exclude = nullptr;
    QCheckBox *m_excludeInternal = nullptr;
    QComboBox *m_naming = nullptr;
    QLineEdit *m_separator = nullptr;
    QLineEdit *m_template = nullptr;
    QLineEdit *m_originHeader = nullptr; // "originHeader": active/active under identity naming
    QLineEdit *m_groupId = nullptr;
    QComboBox *m_start = nullptr;
    QLineEdit *m_startTimestamp = nullptr;
    QComboBox *m_stop = nullptr;
    QLineEdit *m_stopTimestamp = nullptr;
    QDoubleSpinBox *m_stopRecords = nullptr;
    QComboBox *m_delivery = nullptr;
    QCheckBox *m_offsetMap = nullptr;
    QSpinBox *m_transactionInterval = nullptr; // exactly-once only
    QSpinBox *m_transactionRecords = nullptr;
    QCheckBox *m_createTopics = nullptr;
    QCheckBox *m_syncConfigs = nullptr;
    QPlainTextEdit *m_configExclude = nullptr;
    QCheckBox *m_syncAcls = nullptr; // "acls": the interval and mode only with sync on
    QSpinBox *m_aclInterval = nullptr;
    QComboBox *m_aclMode = nullptr;
    QCheckBox *m_syncSchemas = nullptr; // "schemas": the rest only with sync on
    QComboBox *m_schemaIds = nullptr;
    QPlainTextEdit *m_schemaInclude = nullptr;
    QPlainTextEdit *m_schemaExclude = nullptr;
    QSpinBox *m_schemaInterval = nullptr;
    QDoubleSpinBox *m_throttle = nullptr;
    QSpinBox *m_sampling = nullptr;
    QSpinBox *m_refresh = nullptr;
    QLabel *m_unknownKeys = nullptr;
    QLabel *m_keychainNote = nullptr;
    QListWidget *m_issueList = nullptr;
    QPushButton *m_run = nullptr;

    QHash<QString, QWidget *> m_fields;       // key path -> editing widget
    QHash<QWidget *, QLabel *> m_fieldIssues; // editing widget -> its issue label
    QList<ProfileIssue> m_issues;
    mutable QHash<QString, QString>
        m_localIssues; // key path -> the editor's own parse problem (timestamps, key=value lines)
};

} // namespace md
