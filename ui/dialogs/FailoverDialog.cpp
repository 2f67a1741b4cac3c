#include "ui/dialogs/FailoverDialog.h"

#include "engine/offsetmap/OffsetMap.h"
#include "model/tables/FailoverPlanModel.h"
#include "model/tables/ProgressTableModel.h"
#include "ui/widgets/Background.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

namespace md {

namespace {

const QString kErrorStyle = QStringLiteral("color: #b00020;");

bool validPattern(const QString &pattern)
{
    return pattern.isEmpty() || QRegularExpression(QRegularExpression::anchoredPattern(pattern)).isValid();
}

bool sameOptions(const GroupSyncOptions &a, const GroupSyncOptions &b)
{
    return a.groupPattern == b.groupPattern && a.allowRewind == b.allowRewind;
}

} // namespace

FailoverDialog::FailoverDialog(const MirrorJobSpec &spec, QWidget *parent) : QDialog(parent), m_spec(spec)
{
    setWindowTitle(tr("Fail Over Consumer Groups \u2014 %1").arg(spec.name));
    setAttribute(Qt::WA_DeleteOnClose);

    auto *intro = new QLabel(tr("Moves consumer groups from %1 to %2: each group's committed offsets are translated "
                                "through the job's offset map and written to the same group on the target, so its "
                                "consumers continue there with the record they would have read next. Stop the "
                                "applications on the source first.")
                                 .arg(spec.source.bootstrap, spec.target.bootstrap),
                             this);
    intro->setWordWrap(true);

    m_groups = new QLineEdit(this);
    m_groups->setPlaceholderText(spec.groupsInclude.isEmpty() ? tr("a regular expression (the profile lists no group)")
                                                              : tr("the profile's groups (narrow with a regex)"));
    m_groupsError = new QLabel(this);
    m_groupsError->setStyleSheet(kErrorStyle);
    m_groupsError->hide();
    m_allowRewind = new QCheckBox(tr("Allow rewinds (move a target group back to the translation)"), this);
    auto *form = new QFormLayout;
    form->addRow(tr("Groups:"), m_groups);
    form->addRow(QString(), m_groupsError);
    form->addRow(QString(), m_allowRewind);

    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_model = new FailoverPlanModel(this);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(FailoverPlanModel::SortRole);
    m_table = new QTableView(this);
    m_table->setModel(proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    m_busyBar = new QProgressBar(this);
    m_busyBar->setRange(0, 0);
    m_busyBar->setMaximumHeight(6);
    m_busyBar->setTextVisible(false);
    m_busyBar->hide();
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_preview = buttons->addButton(tr("&Preview"), QDialogButtonBox::ActionRole);
    m_cancelPreview = buttons->addButton(tr("&Cancel Preview"), QDialogButtonBox::ActionRole);
    m_cancelPreview->setObjectName(QStringLiteral("cancelPreview"));
    m_cancelPreview->hide();
    connect(m_cancelPreview, &QPushButton::clicked, this, &FailoverDialog::cancelPreview);
    m_apply = buttons->addButton(tr("&Fail Over"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_preview, &QPushButton::clicked, this, &FailoverDialog::preview);
    // AcceptRole would close the dialog: the result is shown here instead.
    disconnect(buttons, &QDialogButtonBox::accepted, nullptr, nullptr);
    connect(m_apply, &QPushButton::clicked, this, &FailoverDialog::failover);
    connect(m_groups, &QLineEdit::textChanged, this, &FailoverDialog::optionsChanged);
    connect(m_allowRewind, &QCheckBox::toggled, this, &FailoverDialog::optionsChanged);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_busyBar);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    // Sized to its table, within the screen.
    QSize size(900, 560);
    if (const QScreen *screen = parent ? parent->screen() : this->screen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.9);
    resize(size);
    m_flow.attach(this, m_status, m_busyBar, [this] { updateButtons(); });
    updateButtons();
}

FailoverDialog::~FailoverDialog()
{
    if (m_previewCancel)
        m_previewCancel->store(true); // the preview ends after its current step; nothing waits
}

void FailoverDialog::setGroupPattern(const QString &pattern)
{
    m_groups->setText(pattern);
}

void FailoverDialog::setAllowRewind(bool allow)
{
    m_allowRewind->setChecked(allow);
}

QString FailoverDialog::summaryText() const
{
    return m_summary->text();
}

QString FailoverDialog::statusText() const
{
    return m_flow.statusText();
}

GroupSyncOptions FailoverDialog::options() const
{
    GroupSyncOptions o;
    o.groupPattern = m_groups->text().trimmed();
    o.allowRewind = m_allowRewind->isChecked();
    o.allowPartial = false; // a failover writes exact translations only
    return o;
}

void FailoverDialog::optionsChanged()
{
    const bool valid = validPattern(m_groups->text().trimmed());
    m_groupsError->setText(valid ? QString() : tr("Not a valid regular expression."));
    m_groupsError->setVisible(!valid);
    m_flow.setStale(!sameOptions(options(), m_planOptions),
                    tr("The options changed since this preview: Preview again before failing over."));
}

void FailoverDialog::updateButtons()
{
    m_cancelPreview->setVisible(m_previewing);
    const bool valid = validPattern(m_groups->text().trimmed());
    const bool selects = !m_spec.groupsInclude.isEmpty() || !m_groups->text().trimmed().isEmpty();
    m_preview->setEnabled(!m_flow.isBusy() && valid && selects);
    m_preview->setToolTip(selects ? QString() : tr("Name the groups to move: the profile lists none"));
    QString why;
    if (m_flow.isBusy())
        why = tr("Waiting for the clusters");
    else if (!m_flow.isCurrent())
        why = tr("Preview first: Fail Over writes exactly what the preview shows");
    else if (!m_plan.ok)
        why = tr("The preview failed");
    else if (m_plan.count(GroupSyncAction::Write) == 0)
        why = tr("Nothing to write");
    m_apply->setEnabled(why.isEmpty());
    m_apply->setToolTip(why.isEmpty() ? tr("Write the previewed target offsets to the groups on the target") : why);
}

void FailoverDialog::preview()
{
    if (m_flow.isBusy() || !m_preview->isEnabled())
        return;
    const GroupSyncOptions opts = options();
    m_planOptions = opts;
    m_previewing = true;
    const quint64 generation = m_flow.beginPreview(tr("Reading the offset map and the groups\u2026"));
    m_previewCancel = std::make_shared<std::atomic_bool>(false);
    updateButtons();
    const MirrorJobSpec spec = m_spec;
    inBackground<Preview>(
        this,
        [spec, opts, cancel = m_previewCancel] {
            // A cancelled preview stops between its steps (each bounded by TimeoutMs).
            Preview p;
            OffsetMap map;
            if (!spec.offsetMap)
                p.error = noOffsetMapReason();
            if (!p.error.isEmpty() || !readOffsetMap(spec.target, offsetMapTopicOf(spec), TimeoutMs, &map, &p.error) ||
                cancel->load())
                return p;
            p.lag = readCopyLag(spec, map, TimeoutMs);
            if (cancel->load())
                return p;
            p.plan = planGroupSync(spec, map, opts, TimeoutMs);
            p.ok = p.plan.ok;
            if (!p.ok)
                p.error = p.plan.error;
            return p;
        },
        [this, generation](const Preview &p) { showPreview(generation, p); });
}

void FailoverDialog::cancelPreview()
{
    if (!m_previewing)
        return;
    m_previewCancel->store(true);
    m_previewing = false;
    m_flow.dropPreview();
    m_flow.setStatus(tr("Preview cancelled."), false);
    Q_EMIT previewFinished(false);
}

void FailoverDialog::showPreview(quint64 generation, const Preview &p)
{
    bool afterApply = false;
    if (!m_flow.finishPreview(generation, &afterApply))
        return;
    m_previewing = false;
    m_plan = p.plan;
    m_plan.ok = p.ok;
    m_lag = p.lag;
    if (!p.ok) {
        m_model->clear();
        m_summary->clear();
        m_flow.setStatus(tr("Preview failed: %1").arg(p.error), true);
        updateButtons();
        Q_EMIT previewFinished(false);
        return;
    }
    m_model->setPlan(m_plan);
    qint64 readAgain = 0;
    int refused = 0;
    QStringList active;
    for (const GroupSyncEntry &g : std::as_const(m_plan.groups)) {
        for (const GroupPartitionSync &ps : g.partitions)
            readAgain += ps.action == GroupSyncAction::Write ? ps.readAgain : 0;
        if (g.targetActive()) {
            ++refused;
            active << QStringLiteral("%1 (%2)").arg(g.group, g.targetMembers.join(QStringLiteral(", ")));
        }
    }
    QString lagText = !m_lag.ok ? tr("The copy's lag is unknown (%1).").arg(m_lag.error)
                      : m_lag.total() == 0
                          ? tr("The job has copied everything.")
                          : tr("%1 records in %2 partitions have not reached the target yet: their groups would read "
                               "them there once they arrive.")
                                .arg(formatOffset(m_lag.total()))
                                .arg(m_lag.behind().size());
    QString text = tr("%1 groups selected of %2 on the source; %3 partitions to write, %4 already there, %5 records "
                      "read again. ")
                       .arg(m_plan.groups.size())
                       .arg(m_plan.groupsListed)
                       .arg(m_plan.count(GroupSyncAction::Write))
                       .arg(m_plan.count(GroupSyncAction::AlreadyThere))
                       .arg(formatOffset(readAgain)) +
                   lagText;
    if (refused > 0)
        text += QLatin1Char(' ') + tr("Refused (active on the target): %1.").arg(active.join(QStringLiteral("; ")));
    m_summary->setText(text);
    if (!afterApply)
        m_flow.setStatus(m_plan.groups.isEmpty()
                             ? tr("No selected group has committed offsets for the mirrored topics.")
                             : QString(),
                         false);
    updateButtons();
    Q_EMIT previewFinished(true);
}

void FailoverDialog::failover()
{
    if (!m_apply->isEnabled())
        return;
    const int groups = int(std::count_if(m_plan.groups.cbegin(), m_plan.groups.cend(),
                                         [](const GroupSyncEntry &g) { return g.count(GroupSyncAction::Write) > 0; }));
    if (!m_flow.confirm(windowTitle(),
                        tr("Write the translated offsets of %1 groups (%2 partitions) to %3?\n\nTheir consumers on the "
                           "target will start from there.")
                            .arg(groups)
                            .arg(m_plan.count(GroupSyncAction::Write))
                            .arg(m_spec.target.bootstrap)))
        return;
    m_flow.beginApply(tr("Writing the groups' offsets to the target\u2026"));
    const MirrorJobSpec spec = m_spec;
    const GroupSyncPlan plan = m_plan;
    inBackground<GroupSyncOutcome>(
        this, [spec, plan] { return applyGroupSync(spec, plan, TimeoutMs); },
        [this](const GroupSyncOutcome &outcome) { showOutcome(outcome); });
}

void FailoverDialog::showOutcome(const GroupSyncOutcome &outcome)
{
    m_flow.finishApply();
    QString text;
    if (!outcome.error.isEmpty()) {
        text = tr("Fail over failed: %1").arg(outcome.error);
    } else {
        text = tr("Wrote %1 partitions of %2 groups to the target.")
                   .arg(outcome.partitionsWritten)
                   .arg(outcome.groupsWritten);
        if (!outcome.refused.isEmpty())
            text += QLatin1Char(' ') + tr("Refused: %1.").arg(outcome.refused.join(QStringLiteral("; ")));
        for (const GroupSyncOutcome::Failure &f : outcome.failures)
            text += QLatin1Char(' ') + (f.topic.isEmpty()
                                            ? tr("%1: %2").arg(f.group, f.error)
                                            : tr("%1 %2/%3: %4").arg(f.group, f.topic).arg(f.partition).arg(f.error));
    }
    m_flow.setStatus(text, !outcome.ok);
    Q_EMIT failoverFinished(outcome.ok, text);
    preview(); // what the groups look like now; the message stays
}

} // namespace md
