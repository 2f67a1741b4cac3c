#pragma once

#include "engine/admin/ClusterMetadata.h"
#include "engine/admin/ClusterProbe.h"
#include "engine/core/ClusterConfig.h"
#include "engine/schema/SchemaRegistryClient.h"
#include "model/cluster/ConnectionStore.h"
#include "ui/connections/SecretStore.h"

#include <QDialog>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QInputDialog;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace md {

// The connection manager: saved connections on the left (add, duplicate,
// rename, remove), every setting of the selected one on the right. Passwords
// go to the system keychain through SecretStore, never to the settings file;
// where no keychain answers, the dialog says so and asks for the password at
// each connect. "Test connection" runs the engine's testConnection in the
// background and answers within 10 s with the brokers found or the reason in
// plain words, chosen by the error's kind; a connection with a schema registry
// has it probed beside the cluster, its answer on a line of its own.
class ConnectionDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionDialog)
public:
    enum class Side { Source, Target };
    Q_ENUM(Side)

    // Neither store is owned; both must outlive the dialog.
    ConnectionDialog(ConnectionStore *store, SecretStore *secrets, QWidget *parent = nullptr);
    // The application's saved connections and the system keychain, owned by the dialog.
    explicit ConnectionDialog(QWidget *parent = nullptr);
    ~ConnectionDialog() override;

    // Selects a saved connection (false when there is none by that name).
    bool selectConnection(const QString &name);
    QString currentName() const;

    // The form as a connection (not yet saved); issues when it does not validate.
    Connection formConnection(QList<ConnectionIssue> *issues = nullptr) const;

    // Asking before removing a connection (tests switch it off).
    void setConfirmRemovals(bool on) { m_confirmRemovals = on; }

    // A failed connection test in plain words ("unreachable: ...",
    // "authentication failed: ...", "TLS failed: ..."), chosen by the error's
    // kind and step; librdkafka's text follows in parentheses for the expert.
    static QString explainFailure(ConnectionTestResult::Step step, const KafkaError &error);
    // A failed registry probe in plain words ("refused: ...", "unreachable: ...").
    static QString explainRegistryFailure(const RegistryError &error);

public Q_SLOTS:
    void addConnection();
    void duplicateConnection();
    void renameConnection();
    void removeConnection();
    bool saveConnection();
    void testConnection();
    void connectAsSource();
    void connectAsTarget();

Q_SIGNALS:
    // The configuration carries the password in memory only.
    void connectRequested(md::ConnectionDialog::Side side, const md::ClusterConfig &config);
    // A test finished: ok with the brokers, or the reason in words and as a
    // typed error (kind Timeout when the dialog stopped waiting; Invalid for a
    // form that does not validate).
    void testFinished(bool ok, const QString &message, const md::KafkaError &error);
    // The registry's part of a test: ok with its subjects, or the reason in words.
    void registryTestFinished(bool ok, const QString &message);

private:
    void init();
    void buildUi();
    void reloadList(const QString &select);
    void showConnection(const Connection &c);
    void clearForm();
    void updateProtocolFields();
    QGroupBox *buildRegistryGroup(QWidget *parent);
    void updateRegistryFields();
    // Shows the registry's issues under its fields; true when there are some.
    bool showRegistryIssues(const QList<ConnectionIssue> &issues);
    void startRegistryTest(const SchemaRegistryConfig &config);
    void finishRegistryTest(quint64 generation, bool ok, const QString &message);
    void updateKeychainNote();
    void setStatus(const QString &text, bool error);
    void setDirty(bool dirty);
    void onSelectionChanged();
    // The secrets a connection can need: the SASL password, the password of
    // an encrypted TLS client key, and the schema registry's password or
    // token. Each is typed in the form, kept in the keychain, or asked for
    // when connecting.
    enum class Secret { SaslPassword, KeyPassword, RegistrySecret };
    struct Secrets {
        QString saslPassword;
        QString keyPassword;
        QString registrySecret;
    };
    // Finds every secret `c` needs and calls `use` with them; nothing when the
    // user cancels a prompt.
    void withSecrets(const Connection &c, std::function<void(Secrets)> use);
    void withSecret(const Connection &c, Secret which, std::function<void(QString)> use);
    void promptSecret(const Connection &c, Secret which, const QString &why, std::function<void(QString)> use);
    bool needsSecret(const Connection &c, Secret which) const;
    QLineEdit *secretEdit(Secret which) const;
    static QString secretKey(const QString &connectionName, Secret which);
    // What became of the secrets one save handed to the keychain.
    struct SecretReport {
        int save = 0;        // which save (m_saves) this is
        int pending = 0;     // writes not answered yet
        QStringList storing; // "the password", "the key password"
        QStringList failed;  // "the password: <why>"
    };
    void keepSecret(const Connection &c, Secret which, bool remember, const QString &old, bool renamed,
                    const std::shared_ptr<SecretReport> &report);
    void reportSecrets(const SecretReport &report);
    void startTest(const ClusterConfig &config);
    void finishTest(quint64 generation, bool ok, const QString &message, const KafkaError &error);
    static QString joinIssues(const QList<ConnectionIssue> &issues);
    void requestConnect(Side side);
    void pickFile(QLineEdit *edit, const QString &title);

    void moveSecret(const QString &from, const QString &to, bool keepOld); // every secret
    void moveOneSecret(const QString &from, const QString &to, bool keepOld, Secret which);

    std::unique_ptr<ConnectionStore> m_ownedStore;
    ConnectionStore *m_store;
    SecretStore *m_secrets;
    QString m_current; // saved name of the connection in the form, empty for none
    bool m_dirty = false;
    int m_saves = 0; // counts saves (and selection changes): only the latest save reports its secrets
    bool m_loading = false;
    bool m_confirmRemovals = true;
    // Counts tests: an answer is shown only if it belongs to the latest test and
    // nothing answered it yet (the 10 s deadline re-enables the button while a
    // slow probe still runs, so a second test can start before the first ends).
    quint64 m_testGeneration = 0;
    bool m_testRunning = false;
    quint64 m_registryGeneration = 0; // the same for the registry's probe
    bool m_registryRunning = false;

    QListWidget *m_list = nullptr;
    QPushButton *m_addButton = nullptr;
    QPushButton *m_duplicateButton = nullptr;
    QPushButton *m_renameButton = nullptr;
    QPushButton *m_removeButton = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_bootstrap = nullptr;
    QComboBox *m_security = nullptr;
    QComboBox *m_mechanism = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QCheckBox *m_remember = nullptr;
    QLabel *m_keychainNote = nullptr;
    QLineEdit *m_caFile = nullptr;
    QLineEdit *m_certFile = nullptr;
    QLineEdit *m_keyFile = nullptr;
    QLineEdit *m_keyPassword = nullptr;
    QList<QWidget *> m_saslWidgets;
    QList<QWidget *> m_sslWidgets;
    QGroupBox *m_registryGroup = nullptr;
    QLineEdit *m_registryUrl = nullptr;
    QLabel *m_registryIssue = nullptr; // the registry's validation problems, under its fields
    QComboBox *m_registryAuth = nullptr;
    QLineEdit *m_registryUser = nullptr;
    QLineEdit *m_registrySecret = nullptr;
    QLabel *m_registrySecretLabel = nullptr;
    QLineEdit *m_registryCa = nullptr;
    QLabel *m_registryStatus = nullptr; // the registry's line of a test
    QPlainTextEdit *m_properties = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_saveButton = nullptr;
    QPushButton *m_testButton = nullptr;
    QPushButton *m_sourceButton = nullptr;
    QPushButton *m_targetButton = nullptr;
    QPointer<QInputDialog> m_prompt;
};

} // namespace md
