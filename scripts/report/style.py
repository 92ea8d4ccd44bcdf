"""What every plot of the report shares: matplotlib (Agg) settings, colours, the Plot object
and PNG rendering."""
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DPI = 110
FAST, RUNG, BASE, LIGHT = "#e6772e", "#3b75af", "#9e9e9e", "#a6c8e6"
plt.rcParams.update({"font.size": 9, "axes.titlesize": 10, "axes.spines.top": False, "axes.spines.right": False})


class Plot:
    """One figure of the report: a PNG, or `absent` saying why it could not be drawn."""

    def __init__(self, pid, section, title, caption="", png=None, absent=None):
        self.id, self.section, self.title, self.caption = pid, section, title, caption
        self.png, self.absent = png, absent


def render(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()
