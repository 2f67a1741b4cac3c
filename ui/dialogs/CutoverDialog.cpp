#include "ui/dialogs/CutoverDialog.h"

#include <QButtonGroup>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace md {

namespace {

const QString kErrorStyle = QStringLiteral("color: #b00020;");
constexpr CutoverStep kSteps[] = {CutoverStep::Preflight, CutoverStep::Fence, CutoverStep::Drain, CutoverStep::Groups,
                                  CutoverStep::Stop};
enum FenceMode { NoFence, Principals, Everyone };

QString stateText(CutoverStepState s)
{
    switch (s) {
    case CutoverStepState::Pending: return CutoverDialog::tr("waiting");
    case CutoverStepState::Running: return CutoverDialog::tr("running\u2026");
    case CutoverStepState::Done: return CutoverDialog::tr("done");
    case CutoverStepState::Skipped: return CutoverDialog::tr("skipped");
    case CutoverStepState::Failed: return CutoverDialog::tr("stopped");
    }
    return {};
}

} // namespace

CutoverDialog::CutoverDialog(const MirrorJobSpec &spec, CutoverTask::JobProvider provider, QWidget *parent)
    : QDialog(parent), m_spec(spec), m_provider(std::move(provider))
{
    setWindowTitle(tr("Cut Over \u2014 %1").arg(spec.name));
    setAttribute(Qt::WA_DeleteOnClose);

    auto *intro = new QLabel(tr("Switches the applications from %1 to %2: a drift report, the source's producers "
                                "fenced, everything copied, the consumer groups moved exactly, the job stopped. Each "
                                "step is recorded on the target: a cutover cancelled or interrupted goes on from where "
                                "it was when started again.")
                                 .arg(spec.source.bootstrap, spec.target.bootstrap),
                             this);
    intro->setWordWrap(true);

    auto *fenceBox = new QGroupBox(tr("Fence the source's producers"), this);
    m_fenceMode = new QButtonGroup(this);
    auto *none = new QRadioButton(tr("No: they are stopped by hand"), fenceBox);
    auto *some = new QRadioButton(tr("These principals:"), fenceBox);
    auto *all = new QRadioButton(tr("Everyone (User:*) but the brokers' super users"), fenceBox);
    m_fenceMode->addButton(none, NoFence);
    m_fenceMode->addButton(some, Principals);
    m_fenceMode->addButton(all, Everyone);
    none->setChecked(true);
    m_principals = new QLineEdit(fenceBox);
    m_principals->setPlaceholderText(tr("User:alice, bob"));
    m_principals->setEnabled(false);
    connect(some, &QRadioButton::toggled, m_principals, &QLineEdit::setEnabled);
    auto *fenceLayout = new QVBoxLayout(fenceBox);
    auto *someRow = new QHBoxLayout;
    someRow->addWidget(some);
    someRow->addWidget(m_principals, 1);
    fenceLayout->addWidget(none);
    fenceLayout->addLayout(someRow);
    fenceLayout->addWidget(all);

    m_groups = new QLineEdit(this);
    m_groups->setPlaceholderText(spec.groupsInclude.isEmpty() ? tr("a regular expression (the profile lists no group)")
                                                              : tr("the profile's groups (add more with a regex)"));
    m_timeout = new QSpinBox(this);
    m_timeout->setRange(1, 86400);
    m_timeout->setValue(300);
    m_timeout->setSuffix(tr(" s"));
    m_settle = new QSpinBox(this);
    m_settle->setRange(0, 3600);
    m_settle->setValue(5);
    m_settle->setSuffix(tr(" s"));
    for (QSpinBox *box : {m_timeout, m_settle})
        box->setFocusPolicy(Qt::StrongFocus); // a wheel over the form scrolls it, not the value
    auto *form = new QFormLayout;
    form->addRow(tr("More groups:"), m_groups);
    form->addRow(tr("Wait at most:"), m_timeout);
    form->addRow(tr("Quiet after the fence:"), m_settle);

    m_steps = new QTreeWidget(this);
    m_steps->setObjectName(QStringLiteral("cutoverSteps"));
    m_steps->setHeaderLabels({tr("Step"), tr("State"), tr("Details")});
    m_steps->setRootIsDecorated(false);
    m_steps->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_steps->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_findings = new QTreeWidget(this);
    m_findings->setObjectName(QStringLiteral("cutoverFindings"));
    m_findings->setHeaderLabels({tr("Severity"), tr("About"), tr("Finding (and its fix)")});
    m_findings->setWordWrap(true);
    m_report = new QPlainTextEdit(this);
    m_report->setReadOnly(true);
    m_report->setPlaceholderText(tr("The report appears here when the cutover is done."));
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);
    // The five steps need five rows; the findings and the report take the rest.
    m_steps->setMaximumHeight(m_steps->header()->sizeHint().height() + 6 * m_steps->fontMetrics().height() +
                              4 * m_steps->frameWidth());
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_findings);
    split->addWidget(m_report);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    m_progress = new QLabel(this);
    m_progress->setWordWrap(true);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_dryRun = buttons->addButton(tr("Dry Run"), QDialogButtonBox::ActionRole);
    m_cutover = buttons->addButton(tr("Cut Over\u2026"), QDialogButtonBox::ActionRole);
    m_cancel = buttons->addButton(tr("Cancel Cutover"), QDialogButtonBox::ActionRole);
    m_rollback = buttons->addButton(tr("Roll Back\u2026"), QDialogButtonBox::ActionRole);
    m_dryRun->setToolTip(tr("The drift report only: nothing is written"));
    m_cancel->setToolTip(tr("Stops at the next step or within a second of a wait; started again, the cutover goes "
                            "on from there"));
    m_rollback->setToolTip(tr("Removes the DENY bindings the cutover made and forgets it"));
    connect(m_dryRun, &QPushButton::clicked, this, &CutoverDialog::dryRun);
    connect(m_cutover, &QPushButton::clicked, this, &CutoverDialog::startCutover);
    connect(m_cancel, &QPushButton::clicked, this, &CutoverDialog::cancelCutover);
    connect(m_rollback, &QPushButton::clicked, this, &CutoverDialog::rollback);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    auto *options = new QHBoxLayout;
    options->addWidget(fenceBox, 1);
    options->addLayout(form, 1);
    layout->addLayout(options);
    layout->addWidget(m_steps);
    layout->addWidget(split, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resetSteps();
    updateButtons();
    resize(980, 700);
}

CutoverDialog::~CutoverDialog() = default; // the task (a child) cancels and waits for its thread

void CutoverDialog::setFencePrincipals(const QString &principals)
{
    m_fenceMode->button(Principals)->setChecked(true);
    m_principals->setText(principals);
}

void CutoverDialog::setSettleSeconds(int seconds)
{
    m_settle->setValue(seconds);
}

QString CutoverDialog::statusText() const
{
    return m_status->text();
}

std::optional<CutoverOptions> CutoverDialog::options()
{
    CutoverOptions o;
    o.groupPattern = m_groups->text().trimmed();
    o.timeoutS = m_timeout->value();
    o.settleS = m_settle->value();
    if (m_fenceMode->checkedId() == Everyone)
        o.fencePrincipals = {QStringLiteral("User:*")};
    if (m_fenceMode->checkedId() == Principals) {
        for (const QString &name : m_principals->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            QString why;
            const std::optional<QString> p = normalizedPrincipal(name, &why);
            if (!p) {
                setStatus(tr("Principals: %1").arg(why), true);
                return std::nullopt;
            }
            o.fencePrincipals.append(*p);
        }
        if (o.fencePrincipals.isEmpty()) {
            setStatus(tr("Name the principals to fence, or choose another option."), true);
            return std::nullopt;
        }
    }
    return o;
}

void CutoverDialog::dryRun()
{
    begin(Run::DryRun);
}

void CutoverDialog::startCutover()
{
    const std::optional<CutoverOptions> o = options();
    if (!o)
        return;
    const QString fence = o->fences() ? tr("DENY WRITE bindings for %1 are added on the source's mirrored topics.")
                                            .arg(o->fencePrincipals.join(QStringLiteral(", ")))
                                      : tr("No producer is fenced: stop them yourself first.");
    if (!confirm(tr("Cut %1 over to %2?\n\n%3 Once everything is copied, the consumer groups are moved to the target "
                    "and the job stops.")
                     .arg(m_spec.source.bootstrap, m_spec.target.bootstrap, fence)))
        return;
    begin(Run::Cutover);
}

void CutoverDialog::rollback()
{
    if (!confirm(tr("Remove the fence this job's cutover added on the source and forget the cutover?")))
        return;
    begin(Run::Rollback);
}

void CutoverDialog::reject()
{
    if (m_task && m_run == Run::Cutover) {
        if (!confirm(tr("The cutover is running. Cancel it and close? It stops at the next step and goes on from "
                        "there when started again.")))
            return;
        m_task->cancel();
    }
    QDialog::reject();
}

void CutoverDialog::cancelCutover()
{
    if (m_task) {
        m_task->cancel();
        setStatus(tr("Cancelling: the cutover stops at the next step and records where it was\u2026"));
    }
}

void CutoverDialog::begin(Run run)
{
    if (m_task)
        return;
    std::optional<CutoverOptions> o = run == Run::Rollback ? CutoverOptions{} : options();
    if (!o)
        return;
    o->dryRun = run == Run::DryRun;
    m_run = run;
    m_task = new CutoverTask(m_spec, *o, this);
    m_task->setJobProvider(m_provider);
    connect(m_task, &CutoverTask::stepUpdated, this, &CutoverDialog::showStep);
    connect(m_task, &CutoverTask::progressLine, m_progress, &QLabel::setText);
    connect(m_task, &CutoverTask::preflightFinished, this, &CutoverDialog::showPreflight);
    connect(m_task, &CutoverTask::finished, this, &CutoverDialog::showOutcome);
    resetSteps();
    m_report->clear();
    m_progress->clear();
    setStatus(run == Run::DryRun    ? tr("Reading both clusters\u2026")
              : run == Run::Cutover ? tr("Cutting over\u2026")
                                    : tr("Rolling back\u2026"));
    updateButtons();
    if (run == Run::Rollback)
        m_task->startRollback();
    else
        m_task->start();
}

void CutoverDialog::resetSteps()
{
    m_steps->clear();
    for (const CutoverStep s : kSteps) {
        auto *item = new QTreeWidgetItem(m_steps, {cutoverStepTitle(s), stateText(CutoverStepState::Pending), {}});
        item->setData(0, Qt::UserRole, int(s));
    }
}

void CutoverDialog::showStep(CutoverStep step, CutoverStepState state, const QString &text)
{
    for (int i = 0; i < m_steps->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_steps->topLevelItem(i);
        if (item->data(0, Qt::UserRole).toInt() != int(step))
            continue;
        item->setText(1, stateText(state));
        item->setText(2, text);
        item->setToolTip(2, text);
        item->setForeground(1, state == CutoverStepState::Failed ? QColor(0xb0, 0x00, 0x20) : QBrush());
    }
    if (state == CutoverStepState::Running)
        m_progress->clear();
}

void CutoverDialog::showPreflight(const CutoverPreflight &preflight)
{
    m_findings->clear();
    for (const CutoverFinding &f : preflight.findings) {
        auto *item = new QTreeWidgetItem(m_findings, {cutoverSeverityName(f.severity), f.subject, f.text});
        item->setToolTip(2, f.text);
        if (f.severity == CutoverFinding::Severity::Blocker)
            item->setForeground(0, QColor(0xb0, 0x00, 0x20));
        if (!f.fix.isEmpty() && f.severity != CutoverFinding::Severity::Info) {
            auto *fix = new QTreeWidgetItem(item, {QString(), QString(), tr("Fix: %1").arg(f.fix)});
            fix->setToolTip(2, f.fix);
            item->setExpanded(true);
        }
    }
    m_findings->resizeColumnToContents(0);
    m_findings->resizeColumnToContents(1);
}

void CutoverDialog::showOutcome(const CutoverOutcome &outcome)
{
    m_outcome = outcome;
    m_task->deleteLater();
    m_task = nullptr;
    m_progress->clear();
    if (m_run == Run::Rollback) {
        if (outcome.exitCode == 0) {
            resetSteps();
            setStatus(tr("Rolled back: the fence is gone and the cutover is forgotten. Start the job again to copy."));
        } else {
            setStatus(outcome.error, true);
        }
    } else if (outcome.exitCode == 0 && m_run == Run::DryRun) {
        setStatus(tr("Nothing blocks the cutover. Nothing was written."));
    } else if (outcome.exitCode == 0) {
        if (outcome.alreadyDone)
            for (int i = 0; i < m_steps->topLevelItemCount(); ++i)
                m_steps->topLevelItem(i)->setText(1, stateText(CutoverStepState::Done));
        m_report->setPlainText(CutoverTask::reportText(outcome.report));
        setStatus(outcome.alreadyDone ? tr("This job's cutover was done before. Roll Back undoes it.")
                                      : tr("Cut over. Switch the applications to the target as the report says."));
    } else {
        setStatus(tr("Stopped at \u201c%1\u201d: %2").arg(cutoverStepTitle(outcome.reached), outcome.error), true);
    }
    updateButtons();
    Q_EMIT finished(outcome);
}

void CutoverDialog::updateButtons()
{
    const bool busy = m_task != nullptr;
    m_dryRun->setEnabled(!busy);
    m_cutover->setEnabled(!busy);
    m_rollback->setEnabled(!busy);
    m_cancel->setEnabled(busy && m_run == Run::Cutover);
    m_fenceMode->button(NoFence)->parentWidget()->setEnabled(!busy);
    m_groups->setEnabled(!busy);
    m_timeout->setEnabled(!busy);
    m_settle->setEnabled(!busy);
}

void CutoverDialog::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? kErrorStyle : QString());
}

bool CutoverDialog::confirm(const QString &text)
{
    if (m_confirmHook)
        return m_confirmHook(text);
    return QMessageBox::question(this, windowTitle(), text, QMessageBox::Yes | QMessageBox::Cancel,
                                 QMessageBox::Cancel) == QMessageBox::Yes;
}

} // namespace md
