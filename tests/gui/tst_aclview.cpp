// The ACLs tab as an editor and an access checker, offscreen and without a
// broker: the filter proxy (under QAbstractItemModelTester) and the filter row,
// the new binding dialog's inline check and confirmation, the delete
// confirmation, the access checker's answers (deny wins, prefixed, DESCRIBE
// implied by READ, super users, rules that could not be read), and the tab's
// actions, their reasons when disabled and the refusals of a cluster that is
// not there (AdminClient answers "not connected", as a refusing broker would).
#include "model/acl/AclFilterProxy.h"
#include "model/tables/AclTableModel.h"
#include "ui/cluster/AclBindingDialog.h"
#include "ui/cluster/AclCheckPanel.h"
#include "ui/cluster/AclDeleteDialog.h"
#include "ui/cluster/AclFilterBar.h"
#include "ui/cluster/AclView.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace md;

namespace {

AclEntry acl(const char *permission, const char *principal, const char *operation, const char *type, const char *name,
             const char *pattern = "LITERAL", const char *host = "*")
{
    return AclEntry{QString::fromUtf8(type),      QString::fromUtf8(name), QString::fromUtf8(pattern),
                    QString::fromUtf8(principal), QString::fromUtf8(host), QString::fromUtf8(operation),
                    QString::fromUtf8(permission)};
}

QList<AclEntry> sample()
{
    return {acl("ALLOW", "User:alice", "READ", "TOPIC", "orders"),
            acl("DENY", "User:alice", "READ", "TOPIC", "orders-eu"),
            acl("ALLOW", "User:alice", "ALL", "TOPIC", "orders-eu"),
            acl("ALLOW", "User:bob", "WRITE", "TOPIC", "pay", "PREFIXED"),
            acl("ALLOW", "User:bob", "READ", "GROUP", "billing"),
            acl("ALLOW", "User:carol", "DESCRIBE", "BROKER", "kafka-cluster")};
}

QStringList principals(const QAbstractItemModel &m)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out.append(m.index(r, AclTableModel::Principal).data().toString());
    return out;
}

template <typename Dialog> Dialog *openDialog(QWidget *parent)
{
    const auto all = parent->findChildren<Dialog *>();
    for (Dialog *d : all) {
        if (d->isVisible())
            return d;
    }
    return nullptr;
}

void setCombo(QComboBox *box, const char *text)
{
    const int i = box->findText(QString::fromUtf8(text));
    QVERIFY2(i >= 0, text);
    box->setCurrentIndex(i);
}

} // namespace

class TestAclView final : public QObject {
    Q_OBJECT

    // The tab, as if its pane had connected and read `acls`: AdminClient numbers
    // its requests 1, 2, ..., so the read the tab starts is the one after `probe`.
    static void load(AdminClient &admin, AclView &view, const QList<AclEntry> &acls)
    {
        view.reset();
        ClusterMetadata md;
        md.bootstrap = QStringLiteral("kafka-eu:9092");
        Q_EMIT admin.connected(0, md);
        const quint64 probe = admin.aclRules(); // refused ("not connected"); the tab ignores it
        view.refresh();
        Q_EMIT admin.aclsReady(probe + 1, acls);
    }

private Q_SLOTS:
    void initTestCase()
    {
        // For the spies on createRequested and answered.
        qRegisterMetaType<AclEntry>();
        qRegisterMetaType<QList<AclEntry>>();
    }

    void filterProxy()
    {
        AclTableModel model;
        AclFilterProxy proxy(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.setAcls(sample());
        QCOMPARE(proxy.rowCount(), 6);
        QVERIFY(!proxy.isFiltering());

        proxy.setPrincipalFilter(QStringLiteral("ALICE")); // substrings ignore case
        QCOMPARE(proxy.rowCount(), 3);
        QVERIFY(!principals(proxy).contains(QLatin1String("User:bob")));
        proxy.setOperationFilter(QStringLiteral("READ")); // exactly READ: not the ALL binding
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setResourceNameFilter(QStringLiteral("-eu"));
        QCOMPARE(proxy.rowCount(), 1);
        QCOMPARE(proxy.index(0, AclTableModel::Permission).data().toString(), QStringLiteral("DENY"));
        proxy.clearFilters();
        QCOMPARE(proxy.rowCount(), 6);

        proxy.setOperationFilter(QStringLiteral("READ"));
        QCOMPARE(principals(proxy).size(), 3);
        proxy.setResourceTypeFilter(QStringLiteral("GROUP"));
        QCOMPARE(principals(proxy), QStringList{QStringLiteral("User:bob")});
        proxy.setResourceTypeFilter({});
        proxy.setOperationFilter({});
        proxy.setResourceNameFilter(QStringLiteral("pay"));
        QCOMPARE(principals(proxy), QStringList{QStringLiteral("User:bob")});
        proxy.setResourceNameFilter({});

        // New bindings arrive through the filter too (merged, not reset).
        proxy.setPrincipalFilter(QStringLiteral("dave"));
        QCOMPARE(proxy.rowCount(), 0);
        QList<AclEntry> more = sample();
        more.append(acl("ALLOW", "User:dave", "READ", "TOPIC", "orders"));
        model.setAcls(more);
        QCOMPARE(proxy.rowCount(), 1);

        // Rows to bindings and back.
        proxy.setPrincipalFilter(QStringLiteral("alice"));
        proxy.sort(AclTableModel::ResourceName);
        const QList<AclEntry> shown =
            proxy.bindingsAt({proxy.index(0, 0), proxy.index(0, 3), proxy.index(2, AclTableModel::Host)});
        QCOMPARE(shown.size(), 2);
        QCOMPARE(proxy.rowsOf(shown), (QList<int>{0, 2}));
        QVERIFY(proxy.rowsOf({acl("ALLOW", "User:bob", "READ", "GROUP", "billing")}).isEmpty()); // filtered out
    }

    void filterRowDrivesTheTable()
    {
        AdminClient admin;
        AclView view(&admin);
        view.model()->setAcls(sample());
        QCOMPARE(view.view()->model()->rowCount(), 6);
        AclFilterBar *bar = view.filterBar();
        bar->principalEdit()->setText(QStringLiteral("bob"));
        QCOMPARE(view.view()->model()->rowCount(), 2);
        setCombo(bar->operationBox(), "WRITE");
        QCOMPARE(view.view()->model()->rowCount(), 1);
        QCOMPARE(view.proxy()->operationFilter(), QStringLiteral("WRITE"));
        setCombo(bar->operationBox(), "READ");
        setCombo(bar->resourceTypeBox(), "GROUP");
        QCOMPARE(view.view()->model()->rowCount(), 1);
        QCOMPARE(view.view()->model()->index(0, AclTableModel::ResourceName).data().toString(),
                 QStringLiteral("billing"));
        bar->clear();
        QVERIFY(!view.proxy()->isFiltering());
        QCOMPARE(view.view()->model()->rowCount(), 6);
        bar->resourceNameEdit()->setText(QStringLiteral("ORDERS"));
        QCOMPARE(view.view()->model()->rowCount(), 3);
    }

    void actionsSayWhyTheyAreDisabled()
    {
        AdminClient admin;
        AclView view(&admin);
        for (QPushButton *b : {view.newBindingButton(), view.deleteButton(), view.checkAccessButton()}) {
            QVERIFY(!b->isEnabled());
            QVERIFY2(b->toolTip().contains(QLatin1String("Not connected")), qPrintable(b->toolTip()));
        }
        view.openNewBinding(); // disabled: nothing opens
        QVERIFY(!openDialog<AclBindingDialog>(&view));

        load(admin, view, sample());
        QCOMPARE(view.model()->rowCount(), 6);
        QVERIFY(view.newBindingButton()->isEnabled());
        QVERIFY(view.checkAccessButton()->isEnabled());
        QVERIFY(!view.deleteButton()->isEnabled());
        QVERIFY(view.deleteButton()->toolTip().contains(QLatin1String("Select")));
        view.view()->selectRow(0);
        QVERIFY(view.deleteButton()->isEnabled());

        // A cluster without an authorizer: a fact, and every action says so.
        view.reset();
        const quint64 probe = admin.aclRules();
        view.refresh();
        Q_EMIT admin.requestFailed(probe + 1, AdminClient::Operation::ListAcls, QStringLiteral("security disabled"),
                                   KafkaError::from(RD_KAFKA_RESP_ERR_SECURITY_DISABLED, QStringLiteral("off")));
        QVERIFY(view.noAuthorizer());
        for (QPushButton *b : {view.newBindingButton(), view.deleteButton(), view.checkAccessButton()}) {
            QVERIFY(!b->isEnabled());
            QVERIFY2(b->toolTip().contains(QLatin1String("No authorizer")), qPrintable(b->toolTip()));
        }
    }

    void bindingDialogChecksInline()
    {
        AclBindingDialog dialog(QStringLiteral("kafka-eu:9092"));
        QVERIFY(!dialog.okButton()->isEnabled());
        QVERIFY(dialog.errorText().isEmpty()); // nothing typed: no red text yet
        QCOMPARE(dialog.hostEdit()->text(), QStringLiteral("*"));
        dialog.resourceNameEdit()->setText(QStringLiteral("orders"));
        dialog.principalEdit()->setText(QStringLiteral("alice"));
        QVERIFY2(dialog.errorText().contains(QLatin1String("principal \"alice\"")), qPrintable(dialog.errorText()));
        QVERIFY(!dialog.okButton()->isEnabled());
        dialog.accept(); // refused: stays on the form
        QVERIFY(!dialog.reviewing());

        dialog.principalEdit()->setText(QStringLiteral("User:alice"));
        QVERIFY(dialog.errorText().isEmpty());
        QVERIFY(dialog.okButton()->isEnabled());
        setCombo(dialog.patternTypeBox(), "PREFIXED");
        dialog.resourceNameEdit()->setText(QStringLiteral("*"));
        QVERIFY2(dialog.errorText().contains(QLatin1String("PREFIXED")), qPrintable(dialog.errorText()));
        QVERIFY(!dialog.okButton()->isEnabled());
        dialog.resourceNameEdit()->setText(QStringLiteral("orders"));
        QVERIFY(dialog.okButton()->isEnabled());

        // The cluster resource has one name, filled in.
        setCombo(dialog.resourceTypeBox(), "BROKER");
        QCOMPARE(dialog.resourceNameEdit()->text(), QStringLiteral("kafka-cluster"));
        QVERIFY(dialog.resourceNameEdit()->isReadOnly());
        QCOMPARE(dialog.patternTypeBox()->currentText(), QStringLiteral("LITERAL"));
        setCombo(dialog.resourceTypeBox(), "TOPIC");
        QVERIFY(dialog.resourceNameEdit()->text().isEmpty());
        dialog.resourceNameEdit()->setText(QStringLiteral("orders"));
        setCombo(dialog.patternTypeBox(), "PREFIXED");

        // Review, then Create: the request is the caller's, the dialog stays.
        QSignalSpy requested(&dialog, &AclBindingDialog::createRequested);
        dialog.accept();
        QVERIFY(dialog.reviewing());
        QCOMPARE(dialog.previewText(),
                 QStringLiteral("Create on kafka-eu:9092: ALLOW User:alice READ on TOPIC orders (PREFIXED)"));
        dialog.back();
        QVERIFY(!dialog.reviewing());
        dialog.accept();
        dialog.accept();
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.first().first().value<AclEntry>(),
                 acl("ALLOW", "User:alice", "READ", "TOPIC", "orders", "PREFIXED"));
        dialog.setSending(true);
        QVERIFY(!dialog.okButton()->isEnabled());
        dialog.accept(); // no second request while one is under way
        QCOMPARE(requested.size(), 1);
        dialog.showRefusal(QStringLiteral("no ALTER on the cluster"));
        QVERIFY(!dialog.reviewing());
        QCOMPARE(dialog.principalEdit()->text(), QStringLiteral("User:alice"));
        QCOMPARE(dialog.patternTypeBox()->currentText(), QStringLiteral("PREFIXED"));
        QVERIFY(dialog.okButton()->isEnabled());
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("refusal"))->text().contains(QLatin1String("no ALTER")));
    }

    void createRefusedKeepsTheInput()
    {
        AdminClient admin;
        AclView view(&admin);
        load(admin, view, sample());
        view.openNewBinding();
        AclBindingDialog *dialog = openDialog<AclBindingDialog>(&view);
        QVERIFY(dialog);
        QVERIFY(dialog->isModal());
        dialog->resourceNameEdit()->setText(QStringLiteral("audit"));
        dialog->principalEdit()->setText(QStringLiteral("User:erin"));
        setCombo(dialog->permissionBox(), "DENY");
        dialog->accept();
        QVERIFY(dialog->previewText().startsWith(QLatin1String("Create on kafka-eu:9092: DENY User:erin READ")));
        dialog->accept();
        QVERIFY(view.busy());
        QVERIFY(!view.newBindingButton()->isEnabled());
        // No broker: AdminClient refuses as a broker would, with a reason.
        QTRY_VERIFY(view.statusText().startsWith(QLatin1String("Not created:")));
        QVERIFY(view.statusText().contains(QLatin1String("not connected")));
        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->sending());
        QCOMPARE(dialog->principalEdit()->text(), QStringLiteral("User:erin"));
        QCOMPARE(dialog->permissionBox()->currentText(), QStringLiteral("DENY"));
        QVERIFY(view.newBindingButton()->isEnabled());
        dialog->reject();
    }

    void deleteListsExactlyTheSelection()
    {
        AdminClient admin;
        AclView view(&admin);
        load(admin, view, sample());
        view.filterBar()->principalEdit()->setText(QStringLiteral("bob"));
        view.view()->selectAll();
        view.deleteSelected();
        auto *dialog = openDialog<AclDeleteDialog>(&view);
        QVERIFY(dialog);
        QCOMPARE(dialog->bindings().size(), 2);
        QCOMPARE(dialog->listText().split(QLatin1Char('\n')),
                 (QStringList{QStringLiteral("ALLOW User:bob READ on GROUP billing"),
                              QStringLiteral("ALLOW User:bob WRITE on TOPIC pay (PREFIXED)")}));
        QCOMPARE(dialog->deleteButton()->text(), QStringLiteral("&Delete 2 binding(s)"));
        dialog->deleteButton()->click();
        QVERIFY(view.busy());
        QTRY_VERIFY(view.statusText().startsWith(QLatin1String("Not deleted:")));
        QCOMPARE(view.model()->rowCount(), 6); // nothing removed on a refusal
        QVERIFY(view.deleteButton()->isEnabled());
    }

    void accessCheckAnswers()
    {
        AclTableModel model;
        model.setAcls(sample());
        AclCheckPanel panel(&model);
        QSignalSpy wanted(&panel, &AclCheckPanel::rulesWanted);
        // As the tab does: a request is under way once asked for.
        connect(&panel, &AclCheckPanel::rulesWanted, &panel, &AclCheckPanel::setRulesReading);
        QSignalSpy answered(&panel, &AclCheckPanel::answered);
        const auto ask = [&](const char *principal, const char *operation, const char *type, const char *name) {
            panel.principalEdit()->setText(QString::fromUtf8(principal));
            setCombo(panel.operationBox(), operation);
            setCombo(panel.resourceTypeBox(), type);
            if (name) // none: as the type filled it in
                panel.resourceNameEdit()->setText(QString::fromUtf8(name));
            panel.check();
        };

        // Deny wins over ALLOW ALL.
        ask("User:alice", "READ", "TOPIC", "orders-eu");
        QCOMPARE(wanted.size(), 1); // the rules are asked for once
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QVERIFY2(panel.explanationText().contains(QLatin1String("DENY wins")), qPrintable(panel.explanationText()));
        QCOMPARE(panel.decidingLines(), QStringList{QStringLiteral("DENY User:alice READ on TOPIC orders-eu")});
        QCOMPARE(answered.last().first().value<QList<AclEntry>>().size(), 1);
        QVERIFY(panel.rulesText().contains(QLatin1String("allow.everyone.if.no.acl.found=false")));

        // DENY READ does not deny DESCRIBE; ALL allows it.
        ask("User:alice", "DESCRIBE", "TOPIC", "orders-eu");
        QCOMPARE(panel.verdictText(), QStringLiteral("Allowed"));
        QCOMPARE(panel.decidingLines(), QStringList{QStringLiteral("ALLOW User:alice ALL on TOPIC orders-eu")});

        // A prefixed binding.
        ask("User:bob", "WRITE", "TOPIC", "payments");
        QCOMPARE(panel.verdictText(), QStringLiteral("Allowed"));
        QCOMPARE(panel.decidingLines(), QStringList{QStringLiteral("ALLOW User:bob WRITE on TOPIC pay (PREFIXED)")});
        ask("User:bob", "WRITE", "TOPIC", "orders");
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QCOMPARE(panel.decidingLines(), QStringList{QStringLiteral("ALLOW User:alice READ on TOPIC orders")});

        // DESCRIBE implied by READ.
        ask("User:alice", "DESCRIBE", "TOPIC", "orders");
        QCOMPARE(panel.verdictText(), QStringLiteral("Allowed"));
        QVERIFY(panel.explanationText().contains(QLatin1String("ALLOW User:alice READ on TOPIC orders")));

        // A super user, once the brokers' rules are known: the answer follows them at once.
        ask("User:admin", "ALTER", "BROKER", nullptr);
        QCOMPARE(panel.resourceNameEdit()->text(), QStringLiteral("kafka-cluster"));
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        panel.setRules(AclRules{{QStringLiteral("User:admin")}, false});
        QCOMPARE(panel.verdictText(), QStringLiteral("Allowed"));
        QVERIFY(panel.explanationText().contains(QLatin1String("super user")));
        QVERIFY(panel.rulesText().contains(QLatin1String("super.users User:admin")));
        QVERIFY(panel.decidingLines().isEmpty());
        panel.check();
        QCOMPARE(wanted.size(), 1); // known now: not asked again
        AclRules hidden;
        hidden.superUsersHidden = true;
        hidden.allowEveryoneHidden = true;
        panel.setRules(hidden);
        QVERIFY2(panel.rulesText().contains(QLatin1String("super.users set but not revealed")),
                 qPrintable(panel.rulesText()));
        QVERIFY(panel.rulesText().contains(QLatin1String("allow.everyone.if.no.acl.found=set but not revealed")));

        // Rules that could not be read: said, and the defaults used.
        panel.setRulesRefused(QStringLiteral("DescribeConfigs refused"));
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QVERIFY(panel.rulesText().contains(QLatin1String("could not be read (DescribeConfigs refused)")));
        QVERIFY(panel.rulesText().contains(QLatin1String("no super users")));

        // A malformed question names the field.
        ask("admin", "READ", "TOPIC", "orders");
        QCOMPARE(panel.verdictText(), QStringLiteral("Cannot check"));
        QVERIFY(panel.explanationText().contains(QLatin1String("principal \"admin\"")));
        QVERIFY(answered.last().first().value<QList<AclEntry>>().isEmpty());
    }

    void accessCheckTakesGivenRules()
    {
        AclTableModel model;
        model.setAcls(sample());
        AclCheckPanel panel(&model);
        AclRules hidden; // what brokers usually answer: both set, values withheld
        hidden.superUsersHidden = true;
        hidden.allowEveryoneHidden = true;
        panel.setRules(hidden);
        const auto ask = [&](const char *principal, const char *operation, const char *type, const char *name) {
            panel.principalEdit()->setText(QString::fromUtf8(principal));
            setCombo(panel.operationBox(), operation);
            setCombo(panel.resourceTypeBox(), type);
            if (name)
                panel.resourceNameEdit()->setText(QString::fromUtf8(name));
            panel.check();
        };

        // A hidden super user: a "no" that says it may be wrong.
        ask("User:admin", "ALTER", "BROKER", nullptr);
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QVERIFY2(panel.explanationText().contains(
                     QLatin1String("unless User:admin is one of the brokers' super.users, which they do not reveal")),
                 qPrintable(panel.explanationText()));
        QVERIFY(panel.rulesText().contains(QLatin1String("super.users set but not revealed by the brokers")));

        // Given here (as server.properties writes it): the answer follows as typed, and says where it came from.
        panel.superUsersEdit()->setText(QStringLiteral("User:admin; User:ops"));
        QCOMPARE(panel.verdictText(), QStringLiteral("Allowed"));
        QVERIFY2(panel.explanationText().contains(QLatin1String("User:admin is a super user")),
                 qPrintable(panel.explanationText()));
        QVERIFY2(panel.rulesText().contains(
                     QLatin1String("super.users User:admin, User:ops (given here: the brokers do not reveal theirs)")),
                 qPrintable(panel.rulesText()));
        QVERIFY(panel.rulesText().contains(QLatin1String("allow.everyone.if.no.acl.found=set but not revealed")));
        QVERIFY(panel.decidingLines().isEmpty());
        QVERIFY(panel.superUsersErrorText().isEmpty());
        ask("User:bob", "ALTER", "BROKER", nullptr);
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QVERIFY(!panel.explanationText().contains(QLatin1String("do not reveal"))); // the list is known now

        // A principal that is not Type:name: said under the field, and no answer on it.
        panel.superUsersEdit()->setText(QStringLiteral("User:admin;ops"));
        QVERIFY2(panel.superUsersErrorText().contains(QLatin1String("principal \"ops\" is not of the form Type:name")),
                 qPrintable(panel.superUsersErrorText()));
        QCOMPARE(panel.verdictText(), QStringLiteral("Cannot check"));
        QVERIFY(panel.explanationText().startsWith(QLatin1String("super users:")));
        panel.superUsersEdit()->clear();
        QVERIFY(panel.superUsersErrorText().isEmpty());
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QVERIFY(panel.explanationText().contains(QLatin1String("do not reveal")));

        // allow.everyone.if.no.acl.found, for a resource no binding names.
        QCOMPARE(panel.allowEveryoneBox()->currentText(), QStringLiteral("as the brokers say"));
        ask("User:dave", "READ", "TOPIC", "audit");
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QVERIFY(panel.explanationText().contains(QLatin1String("set but not revealed, taken as false")));
        setCombo(panel.allowEveryoneBox(), "true");
        QCOMPARE(panel.verdictText(), QStringLiteral("Allowed"));
        QVERIFY2(panel.rulesText().contains(
                     QLatin1String("allow.everyone.if.no.acl.found=true (given here: the brokers do not reveal it)")),
                 qPrintable(panel.rulesText()));

        // Rules that could not be read: what was given, and what is assumed.
        panel.setRulesRefused(QStringLiteral("DescribeConfigs refused"));
        QCOMPARE(panel.verdictText(), QStringLiteral("Allowed"));
        QVERIFY2(panel.rulesText().contains(QLatin1String("given here: allow.everyone.if.no.acl.found=true; "
                                                          "assumed: no super users (Kafka's default)")),
                 qPrintable(panel.rulesText()));
        setCombo(panel.allowEveryoneBox(), "as the brokers say");
        QCOMPARE(panel.verdictText(), QStringLiteral("Denied"));
        QVERIFY(panel.rulesText().contains(
            QLatin1String("assumed: no super users, allow.everyone.if.no.acl.found=false (Kafka's defaults)")));
    }

    void accessCheckSelectsTheDecidingRows()
    {
        AdminClient admin;
        AclView view(&admin);
        load(admin, view, sample());
        view.openAccessCheck();
        AclCheckPanel *panel = view.checkPanel();
        QVERIFY(!panel->isHidden());
        QCOMPARE(panel->accessCheck().rulesState(), AclAccessCheck::RulesState::Reading);
        panel->principalEdit()->setText(QStringLiteral("User:alice"));
        panel->resourceNameEdit()->setText(QStringLiteral("orders-eu"));
        panel->check();
        const QModelIndexList selected = view.view()->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().siblingAtColumn(AclTableModel::Permission).data().toString(), QStringLiteral("DENY"));
        // The rules cannot be read without a cluster: the answer says so and keeps the defaults.
        QTRY_COMPARE(panel->accessCheck().rulesState(), AclAccessCheck::RulesState::Refused);
        QVERIFY2(panel->rulesText().contains(QLatin1String("could not be read")), qPrintable(panel->rulesText()));
        QCOMPARE(panel->verdictText(), QStringLiteral("Denied"));
        // A deciding binding hidden by the filter is listed, not selected.
        view.filterBar()->principalEdit()->setText(QStringLiteral("bob"));
        panel->check();
        QVERIFY(view.view()->selectionModel()->selectedRows().isEmpty());
        QCOMPARE(panel->decidingLines().size(), 1);
    }
};

QTEST_MAIN(TestAclView)
#include "tst_aclview.moc"
