// The job editor's form: its pages, fields and buttons. The keys' choices,
// ranges and tooltips come from the profile's schema table (ProfileSchema.h).

#include "ui/job/JobEditor.h"

#include "model/profile/ProfileSchema.h"
#include "ui/connections/SecretField.h"
#include "ui/job/EditorText.h"
#include "ui/job/PlanView.h"
#include "ui/widgets/FormLabels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <optional>
#include <type_traits>

namespace md {

using namespace editor_text;

namespace {

// A Keyword's values; a Choice's values and then its object forms by key
// ("committed", "earliest", "latest", "timestamp"), which is the enum's order.
QStringList choices(const QString &path)
{
    const profile_schema::Field &f = profile_schema::field(path);
    QStringList out = profile_schema::allowedValues(f);
    if (f.type == profile_schema::Type::Choice)
        out += profile_schema::childKeys(path);
    return out;
}

// The key's range from the table. `floor` lowers the minimum so that a value
// too small gets check's message beside the field instead of a silent clamp.
template <typename Box> void setRange(Box *box, const QString &path, std::optional<qint64> floor = std::nullopt)
{
    const profile_schema::Field &f = profile_schema::field(path);
    // A QSpinBox holds an int: the widest keys use a QDoubleSpinBox, exact to 2^53.
    using Value = decltype(box->value());
    const qint64 top = std::is_same_v<Value, int> ? std::min<qint64>(f.max, std::numeric_limits<int>::max()) : f.max;
    box->setRange(Value(floor.value_or(f.min)), Value(top));
}

} // namespace

void JobEditor::addRow(QFormLayout *form, const QString &label, QWidget *field, const QStringList &keyPaths)
{
    auto *box = new QWidget(form->parentWidget());
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    field->setParent(box);
    if (field->objectName().isEmpty())
        field->setObjectName(keyPaths.first());
    // What the key means, its range and default: the schema table's words, as in docs/PROFILE.md.
    if (const profile_schema::Field *f = profile_schema::find(keyPaths.first()); f && field->toolTip().isEmpty())
        field->setToolTip(profile_schema::toolTip(*f));
    v->addWidget(field);
    auto *issue = new QLabel(box);
    issue->setObjectName(QStringLiteral("issue:") + keyPaths.first());
    issue->setWordWrap(true);
    issue->setTextInteractionFlags(Qt::TextSelectableByMouse);
    issue->hide();
    v->addWidget(issue);
    form->addRow(label, box);
    for (const QString &p : keyPaths)
        m_fields.insert(p, field);
    m_fieldIssues.insert(field, issue);
}

QWidget *JobEditor::buildSide(SideWidgets &w, const QString &side)
{
    auto *group = new QGroupBox(side == QLatin1String("source") ? tr("Source cluster") : tr("Target cluster"));
    auto *form = new QFormLayout(group);
    auto path = [&](const char *key) { return QString(side + QLatin1Char('.') + QLatin1String(key)); };

    w.alias = new QLineEdit;
    w.alias->setPlaceholderText(tr("short name, e.g. eu"));
    addRow(form, tr("Alias"), w.alias, {path("alias")});
    w.bootstrap = new QLineEdit;
    w.bootstrap->setPlaceholderText(tr("host:port[,host:port...]"));
    addRow(form, tr("Bootstrap servers"), w.bootstrap, {path("bootstrap"), side});
    w.security = new QComboBox;
    w.security->addItems(choices(path("security")));
    addRow(form, tr("Security"), w.security, {path("security")});
    w.mechanism = new QComboBox;
    w.mechanism->setEditable(true);
    w.mechanism->addItems(QStringList{QString()} + choices(path("sasl.mechanism")));
    addRow(form, tr("SASL mechanism"), w.mechanism, {path("sasl.mechanism"), path("sasl")});
    w.username = new QLineEdit;
    addRow(form, tr("SASL user"), w.username, {path("sasl.username")});
    w.password = new SecretField(path("sasl.password"));
    addRow(form, tr("SASL password"), w.password, {path("sasl.password")});
    w.sslCa = new QLineEdit;
    w.sslCa->setPlaceholderText(tr("CA certificate file (PEM)"));
    addRow(form, tr("SSL CA"), w.sslCa, {path("ssl.ca"), path("ssl")});
    w.sslCert = new QLineEdit;
    addRow(form, tr("SSL client certificate"), w.sslCert, {path("ssl.cert")});
    w.sslKey = new QLineEdit;
    addRow(form, tr("SSL client key"), w.sslKey, {path("ssl.key")});
    w.keyPassword = new SecretField(path("ssl.keyPassword"));
    addRow(form, tr("SSL key password"), w.keyPassword, {path("ssl.keyPassword")});

    // The registry's keys in a group of their own: a cluster without one leaves it empty.
    auto *registry = new QGroupBox(tr("Schema registry"), group);
    registry->setObjectName(path("schemaRegistry") + QStringLiteral(".group"));
    registry->setFlat(true); // a titled section: its fields line up with the cluster's (alignFormLabels)
    auto *registryForm = new QFormLayout(registry);
    const QMargins margins = registryForm->contentsMargins();
    registryForm->setContentsMargins(0, margins.top(), 0, margins.bottom());
    w.registryUrl = new QLineEdit;
    w.registryUrl->setPlaceholderText(tr("none; e.g. https://registry:8081"));
    addRow(registryForm, tr("URL"), w.registryUrl, {path("schemaRegistry.url"), path("schemaRegistry")});
    w.registryAuth = new QComboBox;
    w.registryAuth->setObjectName(path("schemaRegistry") + QStringLiteral(".auth"));
    w.registryAuth->addItem(tr("None"), QStringLiteral("none"));
    w.registryAuth->addItem(tr("Basic (user and password)"), QStringLiteral("basic"));
    w.registryAuth->addItem(tr("Bearer token"), QStringLiteral("bearer"));
    w.registryAuth->setToolTip(tr("basic writes schemaRegistry.username and .password, bearer .token"));
    addRow(registryForm, tr("Authentication"), w.registryAuth, {w.registryAuth->objectName()});
    w.registryUser = new QLineEdit;
    addRow(registryForm, tr("User"), w.registryUser, {path("schemaRegistry.username")});
    w.registryPassword = new SecretField(path("schemaRegistry.password"));
    addRow(registryForm, tr("Password"), w.registryPassword, {path("schemaRegistry.password")});
    w.registryToken = new SecretField(path("schemaRegistry.token"));
    addRow(registryForm, tr("Token"), w.registryToken, {path("schemaRegistry.token")});
    w.registryCa = new QLineEdit;
    w.registryCa->setPlaceholderText(tr("CA certificate file (PEM); empty: the system's"));
    addRow(registryForm, tr("CA"), w.registryCa, {path("schemaRegistry.ca")});
    form->addRow(registry);
    const QString propHint = tr("property=value, one per line");
    w.properties = linesEdit(nullptr, propHint);
    addRow(form, tr("Properties (every client)"), w.properties, {path("properties")});
    w.consumerProperties = linesEdit(nullptr, propHint);
    addRow(form, tr("Consumer properties"), w.consumerProperties, {path("consumerProperties")});
    w.producerProperties = linesEdit(nullptr, propHint);
    addRow(form, tr("Producer properties"), w.producerProperties, {path("producerProperties")});
    w.adminProperties = linesEdit(nullptr, propHint);
    addRow(form, tr("Admin properties"), w.adminProperties, {path("adminProperties")});

    for (QLineEdit *e :
         {w.alias, w.bootstrap, w.username, w.sslCa, w.sslCert, w.sslKey, w.registryUrl, w.registryUser, w.registryCa})
        connect(e, &QLineEdit::textChanged, this, &JobEditor::edited);
    connect(w.security, &QComboBox::currentIndexChanged, this, &JobEditor::edited);
    connect(w.registryAuth, &QComboBox::currentIndexChanged, this, &JobEditor::edited);
    connect(w.mechanism, &QComboBox::currentTextChanged, this, &JobEditor::edited);
    for (SecretField *f : {w.password, w.keyPassword, w.registryPassword, w.registryToken})
        connect(f, &SecretField::changed, this, &JobEditor::edited);
    for (QPlainTextEdit *e : {w.properties, w.consumerProperties, w.producerProperties, w.adminProperties})
        connect(e, &QPlainTextEdit::textChanged, this, &JobEditor::edited);
    alignFormLabels({form, registryForm});
    return group;
}

void JobEditor::buildForm()
{
    auto *tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("editorTabs"));
    auto page = [tabs](const QString &title) {
        auto *scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        auto *content = new QWidget;
        scroll->setWidget(content);
        tabs->addTab(scroll, title);
        return content;
    };

    // --- Clusters
    QWidget *clusters = page(tr("Clusters"));
    auto *clustersLayout = new QVBoxLayout(clusters);
    m_keychainNote = new QLabel(clusters);
    m_keychainNote->setObjectName(QStringLiteral("keychainNote"));
    m_keychainNote->setWordWrap(true);
    m_keychainNote->hide();
    clustersLayout->addWidget(m_keychainNote);
    auto *sides = new QHBoxLayout;
    sides->addWidget(buildSide(m_source, QStringLiteral("source")));
    sides->addWidget(buildSide(m_target, QStringLiteral("target")));
    clustersLayout->addLayout(sides);
    clustersLayout->addStretch();

    // --- Topics and naming
    QWidget *topics = page(tr("Topics"));
    auto *topicsForm = new QFormLayout(topics);
    m_name = new QLineEdit;
    addRow(topicsForm, tr("Job name"), m_name, {QStringLiteral("name")});
    m_include = linesEdit(nullptr, tr("regular expression, one per line, e.g. orders\\..*"));
    addRow(topicsForm, tr("Include topics"), m_include, {QStringLiteral("topics.include"), QStringLiteral("topics")});
    m_exclude = linesEdit(nullptr, tr("regular expression, one per line"));
    addRow(topicsForm, tr("Exclude topics"), m_exclude, {QStringLiteral("topics.exclude")});
    m_excludeInternal = new QCheckBox(tr("Leave out internal topics (__consumer_offsets, MM2's heartbeats, ...)"));
    addRow(topicsForm, QString(), m_excludeInternal, {QStringLiteral("topics.excludeInternal")});
    m_naming = new QComboBox;
    m_naming->addItems(choices(QStringLiteral("naming.policy")));
    addRow(topicsForm, tr("Target names"), m_naming, {QStringLiteral("naming.policy"), QStringLiteral("naming")});
    m_separator = new QLineEdit;
    addRow(topicsForm, tr("Prefix separator"), m_separator, {QStringLiteral("naming.separator")});
    m_template = new QLineEdit;
    m_template->setPlaceholderText(QStringLiteral("dr-${topic}"));
    addRow(topicsForm, tr("Name template"), m_template, {QStringLiteral("naming.template")});
    m_originHeader = new QLineEdit;
    m_originHeader->setPlaceholderText(tr("off; for active/active with the same names both ways: mirrordesk.origin"));
    addRow(topicsForm, tr("Origin header"), m_originHeader, {QStringLiteral("originHeader")});
    m_createTopics = new QCheckBox(tr("Create missing target topics (with the source's partitions)"));
    addRow(topicsForm, QString(), m_createTopics, {QStringLiteral("createTopics")});
    m_syncConfigs = new QCheckBox(tr("Copy topic configs to the target"));
    addRow(topicsForm, QString(), m_syncConfigs, {QStringLiteral("syncTopicConfigs")});
    m_configExclude = linesEdit(nullptr, tr("topic configs never copied (regular expressions); empty: MM2's defaults"));
    addRow(topicsForm, tr("Config exclude"), m_configExclude, {QStringLiteral("configExclude")});
    // ACL sync: beside the configs, the other thing that follows the topics to the target.
    m_syncAcls = new QCheckBox(tr("Keep the target's ACLs in step (ACL sync)"));
    addRow(topicsForm, QString(), m_syncAcls, {QStringLiteral("acls.sync"), QStringLiteral("acls")});
    m_aclInterval = new QSpinBox;
    setRange(m_aclInterval, QStringLiteral("acls.intervalMs"));
    m_aclInterval->setSuffix(tr(" ms"));
    addRow(topicsForm, tr("ACL sync interval"), m_aclInterval, {QStringLiteral("acls.intervalMs")});
    m_aclMode = new QComboBox; // the key's values: safe, exact
    m_aclMode->addItems(choices(QStringLiteral("acls.mode")));
    const int safe = m_aclMode->findText(aclSyncModeName(MirrorJobSpec::AclSyncMode::Safe));
    const int exact = m_aclMode->findText(aclSyncModeName(MirrorJobSpec::AclSyncMode::Exact));
    m_aclMode->setItemData(safe,
                           tr("As MirrorMaker 2: no ALLOW WRITE on mirrored topics (only the mirror writes them), "
                              "ALLOW ALL becomes READ; DENY and group bindings as they are"),
                           Qt::ToolTipRole);
    m_aclMode->setItemData(exact, tr("Every binding as it is (a migration's cutover)"), Qt::ToolTipRole);
    addRow(topicsForm, tr("ACL sync mode"), m_aclMode, {QStringLiteral("acls.mode")});
    auto *aclNote = new QLabel(tr("Bindings of the mirrored topics (renamed as they are) and of the selected groups "
                                  "follow. Only bindings this job created are ever deleted; the target's own are "
                                  "never touched."));
    aclNote->setObjectName(QStringLiteral("aclSyncNote"));
    aclNote->setWordWrap(true);
    aclNote->setAlignment(Qt::AlignLeft | Qt::AlignTop); // the row may be taller than the text: no gap above it
    aclNote->setToolTip(profile_schema::toolTip(profile_schema::field(QStringLiteral("acls"))));
    topicsForm->addRow(QString(), aclNote);
    // Schema sync: the third thing that follows the topics (both sides need a registry, Clusters tab).
    m_syncSchemas = new QCheckBox(tr("Copy the topics' schemas to the target's registry (schema sync)"));
    addRow(topicsForm, QString(), m_syncSchemas, {QStringLiteral("schemas.sync"), QStringLiteral("schemas")});
    m_schemaIds = new QComboBox; // the key's values: translate, preserve
    m_schemaIds->addItems(choices(QStringLiteral("schemas.ids")));
    m_schemaIds->setItemData(m_schemaIds->findText(schemaIdsName(MirrorJobSpec::SchemaIds::Translate)),
                             tr("The target registry numbers the schemas; each record's schema id is rewritten "
                                "while copying"),
                             Qt::ToolTipRole);
    m_schemaIds->setItemData(m_schemaIds->findText(schemaIdsName(MirrorJobSpec::SchemaIds::Preserve)),
                             tr("The same ids on the target (its registry must be in IMPORT mode)"), Qt::ToolTipRole);
    addRow(topicsForm, tr("Schema ids"), m_schemaIds, {QStringLiteral("schemas.ids")});
    m_schemaInclude = linesEdit(nullptr, tr("source subjects (regular expressions); empty: every subject of a "
                                            "mirrored topic"));
    addRow(topicsForm, tr("Include subjects"), m_schemaInclude,
           {QStringLiteral("schemas.subjects.include"), QStringLiteral("schemas.subjects")});
    m_schemaExclude = linesEdit(nullptr, tr("subjects that never follow (regular expressions)"));
    addRow(topicsForm, tr("Exclude subjects"), m_schemaExclude, {QStringLiteral("schemas.subjects.exclude")});
    m_schemaInterval = new QSpinBox;
    setRange(m_schemaInterval, QStringLiteral("schemas.intervalMs"));
    m_schemaInterval->setSuffix(tr(" ms"));
    addRow(topicsForm, tr("Schema sync interval"), m_schemaInterval, {QStringLiteral("schemas.intervalMs")});

    // --- Running
    QWidget *running = page(tr("Running"));
    auto *runForm = new QFormLayout(running);
    m_groupId = new QLineEdit;
    addRow(runForm, tr("Consumer group"), m_groupId, {QStringLiteral("groupId")});
    m_start = new QComboBox;
    m_start->addItems(choices(QStringLiteral("start"))); // StartPosition order
    addRow(runForm, tr("Start at"), m_start, {QStringLiteral("start")});
    m_startTimestamp = new QLineEdit;
    m_startTimestamp->setPlaceholderText(QStringLiteral("2026-11-01T00:00:00Z"));
    addRow(runForm, tr("Start timestamp"), m_startTimestamp, {QStringLiteral("start.timestamp")});
    m_stop = new QComboBox;
    m_stop->addItems(choices(QStringLiteral("stop"))); // StopCondition order
    addRow(runForm, tr("Stop"), m_stop, {QStringLiteral("stop")});
    m_stopTimestamp = new QLineEdit;
    m_stopTimestamp->setPlaceholderText(QStringLiteral("2026-11-02T00:00:00Z"));
    addRow(runForm, tr("Stop timestamp"), m_stopTimestamp, {QStringLiteral("stop.timestamp")});
    m_stopRecords = new QDoubleSpinBox;
    m_stopRecords->setDecimals(0);
    setRange(m_stopRecords, QStringLiteral("stop.records"), 0);
    m_stopRecords->setSuffix(tr(" records per partition"));
    addRow(runForm, tr("Stop after"), m_stopRecords, {QStringLiteral("stop.records")});
    m_delivery = new QComboBox; // items in DeliveryGuarantee order
    m_delivery->addItems(choices(QStringLiteral("delivery")));
    addRow(runForm, tr("Delivery"), m_delivery, {QStringLiteral("delivery")});
    m_offsetMap = new QCheckBox(tr("Keep the offset map (for group sync, failover and exactly-once)"));
    addRow(runForm, QString(), m_offsetMap, {QStringLiteral("offsetMap")});
    // The ranges start below the valid minimum so that a value too small gets check's message, not a silent clamp.
    m_transactionInterval = new QSpinBox;
    setRange(m_transactionInterval, QStringLiteral("transactionIntervalMs"), 0);
    m_transactionInterval->setSuffix(tr(" ms"));
    addRow(runForm, tr("Transaction interval (ms)"), m_transactionInterval, {QStringLiteral("transactionIntervalMs")});
    m_transactionRecords = new QSpinBox;
    setRange(m_transactionRecords, QStringLiteral("transactionMaxRecords"), 0);
    addRow(runForm, tr("Records per transaction"), m_transactionRecords, {QStringLiteral("transactionMaxRecords")});
    m_throttle = new QDoubleSpinBox;
    m_throttle->setDecimals(0);
    setRange(m_throttle, QStringLiteral("throttleBytesPerSecond"));
    m_throttle->setSuffix(tr(" bytes/s"));
    m_throttle->setSpecialValueText(tr("unlimited"));
    addRow(runForm, tr("Throttle"), m_throttle, {QStringLiteral("throttleBytesPerSecond")});
    m_sampling = new QSpinBox;
    setRange(m_sampling, QStringLiteral("samplingIntervalMs"));
    m_sampling->setSuffix(tr(" ms"));
    addRow(runForm, tr("Sampling interval"), m_sampling, {QStringLiteral("samplingIntervalMs")});
    m_refresh = new QSpinBox;
    setRange(m_refresh, QStringLiteral("topicRefreshIntervalMs"));
    m_refresh->setSuffix(tr(" ms"));
    addRow(runForm, tr("Topic refresh"), m_refresh, {QStringLiteral("topicRefreshIntervalMs")});
    m_unknownKeys = new QLabel;
    m_unknownKeys->setWordWrap(true);
    runForm->addRow(m_unknownKeys);

    for (QLineEdit *e : {m_name, m_separator, m_template, m_originHeader, m_groupId, m_startTimestamp, m_stopTimestamp})
        connect(e, &QLineEdit::textChanged, this, &JobEditor::edited);
    for (QPlainTextEdit *e : {m_include, m_exclude, m_configExclude, m_schemaInclude, m_schemaExclude})
        connect(e, &QPlainTextEdit::textChanged, this, &JobEditor::edited);
    for (QCheckBox *c : {m_excludeInternal, m_createTopics, m_syncConfigs, m_offsetMap, m_syncAcls, m_syncSchemas})
        connect(c, &QCheckBox::toggled, this, &JobEditor::edited);
    for (QComboBox *c : {m_naming, m_start, m_stop, m_delivery, m_aclMode, m_schemaIds})
        connect(c, &QComboBox::currentIndexChanged, this, &JobEditor::edited);
    for (QDoubleSpinBox *s : {m_stopRecords, m_throttle})
        connect(s, &QDoubleSpinBox::valueChanged, this, &JobEditor::edited);
    for (QSpinBox *s :
         {m_sampling, m_refresh, m_transactionInterval, m_transactionRecords, m_aclInterval, m_schemaInterval})
        connect(s, &QSpinBox::valueChanged, this, &JobEditor::edited);

    // --- Problems and plan below the form
    m_issueList = new QListWidget;
    m_issueList->setObjectName(QStringLiteral("issueList"));
    connect(m_issueList, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        QWidget *w = fieldFor(item->data(Qt::UserRole).toString());
        if (!w)
            return;
        // Bring the field's page forward, then the field.
        auto *tabs = findChild<QTabWidget *>(QStringLiteral("editorTabs"));
        for (QWidget *p = w; p && tabs; p = p->parentWidget()) {
            if (auto *scroll = qobject_cast<QScrollArea *>(p); scroll && tabs->indexOf(scroll) >= 0) {
                tabs->setCurrentWidget(scroll);
                break;
            }
        }
        w->setFocus();
    });
    m_plan = new PlanView;
    auto *bottom = new QTabWidget;
    bottom->setObjectName(QStringLiteral("editorBottomTabs"));
    bottom->addTab(m_issueList, tr("Problems"));
    bottom->addTab(m_plan, tr("Plan"));

    m_run = new QPushButton(tr("&Run Job"));
    m_run->setObjectName(QStringLiteral("runJob"));
    m_run->setToolTip(
        tr("Start this job now (it appears in the job list, where it can be paused, resumed and stopped)"));
    connect(m_run, &QPushButton::clicked, this, &JobEditor::runRequested);
    auto *browse = new QPushButton(tr("&Browse Clusters"));
    browse->setObjectName(QStringLiteral("browseClusters"));
    browse->setToolTip(tr("Open this job's source and target in the two cluster panes"));
    connect(browse, &QPushButton::clicked, this, &JobEditor::browseRequested);
    // Reset Progress sits with the start positions it changes (the plan's tab), not in this row:
    // the row sets the editor's narrowest width.
    connect(m_plan, &PlanView::resetProgressRequested, this, &JobEditor::resetProgressRequested);
    auto *refresh = new QPushButton(tr("Refresh Plan"));
    connect(refresh, &QPushButton::clicked, m_plan, &PlanView::refreshNow);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(refresh);
    buttons->addWidget(browse);
    buttons->addWidget(m_run);

    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(tabs);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);
    layout->addLayout(buttons);
}

} // namespace md
