#include "ui/dialogs/SchemaSyncDialog.h"

#include "ui/widgets/Background.h"

#include <QColor>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace md {

namespace {
constexpr int kRegistryTimeoutMs = 15000;
}

SchemaSyncDialog::SchemaSyncDialog(const MirrorJobSpec &spec, QWidget *parent)
    : QDialog(parent), m_spec(spec), m_summary(new QLabel(this)), m_lines(new QListWidget(this)),
      m_register(new QPushButton(tr("&Register"), this))
{
    setWindowTitle(tr("Sync Schemas Now \u2014 %1").arg(spec.name));
    m_spec.syncSchemas = true; // one round now, whatever the profile does while it runs
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("schemaSyncSummary"));
    m_lines->setObjectName(QStringLiteral("schemaSyncLines"));
    m_lines->setWordWrap(true);
    m_register->setObjectName(QStringLiteral("registerSchemas"));
    m_register->setEnabled(false);
    m_register->setToolTip(tr("Register the listed versions on the target's registry, in this order"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_register, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_register, &QPushButton::clicked, this, [this] { read(true); });
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_lines, 1);
    layout->addWidget(buttons);
    resize(760, 420);
    read(false);
}

void SchemaSyncDialog::read(bool apply)
{
    m_busy = true;
    m_register->setEnabled(false);
    m_summary->setText(apply ? tr("Registering on the target's registry\u2026") : tr("Reading both registries\u2026"));
    inBackground<SchemaSyncPreview>(
        this, [spec = m_spec, apply] { return readSchemaSyncPreview(spec, kRegistryTimeoutMs, apply); },
        [this](const SchemaSyncPreview &p) {
            m_busy = false;
            showPreview(p);
            if (p.applied && p.toRegister() > 0)
                Q_EMIT registered();
            Q_EMIT previewShown();
        });
}

void SchemaSyncDialog::showPreview(const SchemaSyncPreview &p)
{
    m_preview = p;
    m_summary->setText(p.summary());
    m_lines->clear();
    for (const SchemaSyncPreview::Line &line : p.lines()) {
        auto *item = new QListWidgetItem(line.text, m_lines);
        if (line.kind == SchemaSyncPreview::Line::Kind::Failure)
            item->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
        else if (line.kind == SchemaSyncPreview::Line::Kind::Present)
            item->setForeground(QColor(0x55, 0x55, 0x55)); // what is there already: quieter than what changes
    }
    const int n = p.state == SchemaSyncPreview::State::Ready && !p.applied ? p.toRegister() : 0;
    m_register->setText(n ? tr("&Register %n Version(s)", nullptr, n) : tr("&Register"));
    m_register->setEnabled(n > 0);
}

} // namespace md
