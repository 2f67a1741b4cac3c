#pragma once

#include "model/acl/AclAccessCheck.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace md {

class AclTableModel;

// "Check access…" of the ACLs tab, a panel below the table (not a dialog:
// the table stays usable beside it). Answers "may principal P do O on R from
// H?" from the bindings the tab has loaded, at once and without a request;
// the brokers' super.users and allow.everyone.if.no.acl.found come from the
// caller (setRules, once per connection), asked for by rulesWanted. Brokers
// often do not reveal them: the optional "Super users" and "Everyone if no
// ACL" fields, when given, are used instead, and the answer's note says so.
class AclCheckPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AclCheckPanel)
public:
    explicit AclCheckPanel(const AclTableModel *bindings, QWidget *parent = nullptr);

    void check();   // answers the question in the fields
    void recheck(); // again, if an answer is shown (new bindings or rules)
    bool hasAnswer() const { return m_answered; }
    const AclAccessAnswer &answer() const { return m_answer; }

    const AclAccessCheck &accessCheck() const { return m_check; }
    void forgetRules(); // a new connection
    void setRulesReading();
    void setRules(const AclRules &rules);
    void setRulesRefused(const QString &reason);

    QLineEdit *principalEdit() const { return m_principal; }
    QLineEdit *hostEdit() const { return m_host; }
    QComboBox *operationBox() const { return m_operation; }
    QComboBox *resourceTypeBox() const { return m_resourceType; }
    QLineEdit *resourceNameEdit() const { return m_resourceName; }
    QPushButton *checkButton() const { return m_checkButton; }
    QLineEdit *superUsersEdit() const { return m_superUsers; } // super.users, "User:admin;User:ops"
    // allow.everyone.if.no.acl.found: "as the brokers say" (data: invalid), true, false.
    QComboBox *allowEveryoneBox() const { return m_allowEveryone; }
    QString superUsersErrorText() const; // the inline error under the field ("" when fine)
    QString verdictText() const;
    QString explanationText() const;
    QString rulesText() const;
    QStringList decidingLines() const;

Q_SIGNALS:
    void rulesWanted();
    // After each answer: the bindings that decided it (empty for a super user,
    // no bindings on the resource, or a malformed question).
    void answered(const QList<md::AclEntry> &deciding);
    void closeRequested();

private:
    void showAnswer(const AclAccessAnswer &answer);
    void onResourceTypeChanged();
    void onGivenRulesChanged();

    const AclTableModel *m_bindings;
    AclAccessCheck m_check;
    AclAccessAnswer m_answer;
    bool m_answered = false;
    QLineEdit *m_principal;
    QLineEdit *m_host;
    QComboBox *m_operation;
    QComboBox *m_resourceType;
    QLineEdit *m_resourceName;
    QPushButton *m_checkButton;
    QLineEdit *m_superUsers;
    QComboBox *m_allowEveryone;
    QLabel *m_superUsersError;
    QLabel *m_verdict;
    QLabel *m_explanation;
    QLabel *m_rules;
    QLabel *m_decidingTitle;
    QListWidget *m_deciding;
};

} // namespace md
