#pragma once

#include "model/acl/AclBindingInput.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QStackedWidget;

namespace md {

// "New binding…" of the ACLs tab, in two steps: the form (the problem shown
// inline, naming the field, and Review disabled until the binding is valid),
// then the binding as it will be sent ("Create on <cluster>: ALLOW User:alice
// READ on TOPIC orders (PREFIXED)") with Create and Back. Create does not
// close the dialog: it emits createRequested and waits for the caller's
// answer, so a refusal (showRefusal) returns to the form with everything typed.
class AclBindingDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclBindingDialog)
public:
    explicit AclBindingDialog(const QString &cluster, QWidget *parent = nullptr);

    AclEntry typed() const;                  // the fields as they are
    std::optional<AclEntry> binding() const; // normalised, when valid
    QString errorText() const;               // the inline problem; empty when valid (or nothing typed yet)
    QString previewText() const;             // the confirmation's sentence
    bool reviewing() const;                  // on the confirmation step
    bool sending() const { return m_sending; }

    // The caller's answers to createRequested.
    void setSending(bool sending);
    void showRefusal(const QString &reason); // back to the form, input kept
    void finishCreated();                    // closes (accepted)

    void setCluster(const QString &cluster) { m_cluster = cluster; }

    QComboBox *resourceTypeBox() const { return m_resourceType; }
    QComboBox *patternTypeBox() const { return m_patternType; }
    QLineEdit *resourceNameEdit() const { return m_resourceName; }
    QLineEdit *principalEdit() const { return m_principal; }
    QLineEdit *hostEdit() const { return m_host; }
    QComboBox *operationBox() const { return m_operation; }
    QComboBox *permissionBox() const { return m_permission; }
    QPushButton *okButton() const { return m_ok; }
    QPushButton *backButton() const { return m_back; }

    // The form: to the confirmation when valid; the confirmation: createRequested.
    void accept() override;
    void back();

Q_SIGNALS:
    void createRequested(const md::AclEntry &binding);

private:
    void updateState();
    void onResourceTypeChanged();

    QString m_cluster;
    bool m_sending = false;
    QStackedWidget *m_pages;
    QComboBox *m_resourceType;
    QComboBox *m_patternType;
    QLineEdit *m_resourceName;
    QLineEdit *m_principal;
    QLineEdit *m_host;
    QComboBox *m_operation;
    QComboBox *m_permission;
    QLabel *m_error;
    QLabel *m_refusal;
    QLabel *m_preview;
    QPushButton *m_ok;
    QPushButton *m_back;
    QPushButton *m_cancel;
};

} // namespace md
